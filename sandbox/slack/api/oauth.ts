import { expireTeamTokens, mintPlain, mintRotating, revokeTeam } from "../tokens.ts";
import type { Workspace } from "../types.ts";
import { slackError, str } from "./args.ts";
import { type ApiContext, type ApiMethod, authed } from "./context.ts";

/** Slack's OAuth codes are good for ten minutes. */
const CODE_TTL_MS = 10 * 60_000;

/** Client credentials may come as body fields or as HTTP Basic auth; both are checked when configured. */
function checkClient(ctx: ApiContext): void {
  const id = str(ctx.args, "client_id") ?? ctx.basic?.user;
  const secret = str(ctx.args, "client_secret") ?? ctx.basic?.pass;
  const want = ctx.oauth;
  if (!id) throw slackError("invalid_client_id");
  if (want.clientId !== undefined && id !== want.clientId) throw slackError("invalid_client_id");
  if (want.clientSecret !== undefined && secret !== want.clientSecret) throw slackError("bad_client_secret");
}

function workspaceOf(ctx: ApiContext, teamId: string): Workspace {
  const ws = ctx.state.workspaces.get(teamId);
  // The workspace vanished between code and exchange: Slack treats the code as void.
  if (!ws) throw slackError("invalid_code");
  return ws;
}

/** The v2 install reply; rotating workspaces get an expiring token and a refresh token. */
function installReply(
  ctx: ApiContext,
  ws: Workspace,
  userId: string | undefined,
  token: string,
  refresh?: string,
) {
  return {
    app_id: ctx.appId,
    ...(userId ? { authed_user: { id: userId } } : {}),
    scope: ws.scopes.join(","),
    token_type: "bot",
    access_token: token,
    bot_user_id: ws.botUserId,
    team: ws.isEnterpriseInstall ? null : { id: ws.teamId, name: ws.name },
    enterprise: ws.enterprise,
    is_enterprise_install: ws.isEnterpriseInstall,
    ...(refresh ? { refresh_token: refresh, expires_in: ctx.oauth.tokenTtlSec } : {}),
  };
}

function exchangeCode(ctx: ApiContext) {
  const code = ctx.state.oauthCodes.get(str(ctx.args, "code") ?? "");
  if (!code || code.used || ctx.state.now() - code.createdAt > CODE_TTL_MS) throw slackError("invalid_code");
  code.used = true;
  const ws = workspaceOf(ctx, code.teamId);
  if (code.scopes) ws.scopes = [...code.scopes];
  if (!ws.tokenRotation) {
    // Reinstalling keeps the bot token, as in Slack; after an uninstall there is none left, so mint one.
    const live = [...ctx.state.tokens.values()].find((t) => t.teamId === ws.teamId && !t.revokedWith);
    return installReply(ctx, ws, code.userId, live?.token ?? mintPlain(ctx.state, ws.teamId));
  }
  const { access, refresh } = mintRotating(ctx.state, ws.teamId, ctx.oauth.tokenTtlSec);
  return installReply(ctx, ws, code.userId, access, refresh);
}

/** A refresh issues a new token pair; the old refresh token dies now, old access tokens after the grace. */
function refresh(ctx: ApiContext) {
  const given = str(ctx.args, "refresh_token") ?? "";
  const rec = ctx.state.refreshTokens.get(given);
  if (!rec || rec.used) throw slackError("invalid_refresh_token");
  rec.used = true;
  const ws = workspaceOf(ctx, rec.teamId);
  const { access, refresh: next } = mintRotating(ctx.state, ws.teamId, ctx.oauth.tokenTtlSec);
  expireTeamTokens(ctx.state, ws.teamId, access, ctx.oauth.rotationGraceMs);
  return installReply(ctx, ws, undefined, access, next);
}

export const oauthMethods: Record<string, ApiMethod> = {
  "oauth.v2.access": {
    auth: "none",
    run(ctx) {
      checkClient(ctx);
      const grant = str(ctx.args, "grant_type") ?? "authorization_code";
      if (grant === "refresh_token") return refresh(ctx);
      if (grant !== "authorization_code") throw slackError("invalid_grant_type");
      return exchangeCode(ctx);
    },
  },
  "apps.uninstall": {
    auth: "bot",
    run(ctx) {
      checkClient(ctx);
      revokeTeam(ctx.state, authed(ctx).ws.teamId);
      return {};
    },
  },
};
