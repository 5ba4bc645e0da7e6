import { slackError, str } from "../api/args.ts";
import type { ApiContext, ApiMethod } from "../api/context.ts";
import { randomHex } from "../ids.ts";
import { SOCKET_PATH } from "./server.ts";

/**
 * `apps.connections.open`: an app-level token (`xapp-…`) with `connections:write` gets a one-time
 * WebSocket URL. Bot and workflow tokens are refused with `not_allowed_token_type`, as Slack does.
 */
const connectionsOpen: ApiMethod = {
  auth: "none",
  run(ctx: ApiContext) {
    const token = ctx.bearer ?? str(ctx.args, "token");
    if (!token) throw slackError("not_authed");
    if (ctx.state.tokens.has(token)) throw slackError("not_allowed_token_type");
    const app = ctx.state.appTokens.get(token);
    if (!app || app.revoked) throw slackError("invalid_auth");
    if (!app.scopes.includes("connections:write"))
      throw slackError("missing_scope", { needed: "connections:write", provided: app.scopes.join(",") });
    const ticket = randomHex(16);
    ctx.state.connectionTickets.set(ticket, {
      ticket,
      appId: app.appId,
      createdAt: ctx.state.now(),
      used: false,
    });
    const ws = ctx.baseUrl.replace(/^http/, "ws");
    return { url: `${ws}${SOCKET_PATH}?ticket=${ticket}&app_id=${app.appId}` };
  },
};

export const socketMethods: Record<string, ApiMethod> = { "apps.connections.open": connectionsOpen };
