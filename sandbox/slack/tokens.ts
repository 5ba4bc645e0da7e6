import { slackError } from "./api/args.ts";
import { randomAlnum, randomHex } from "./ids.ts";
import type { StandInState, TokenRecord } from "./state.ts";
import type { Workspace } from "./types.ts";

/**
 * The workspace behind a bearer token, or the error Slack gives: `not_authed` without a token,
 * `invalid_auth` for unknown (or revoked, by default) tokens, `token_expired` past a rotating
 * token's lifetime.
 */
export function resolveToken(
  state: StandInState,
  token: string | undefined,
): { ws: Workspace; token: TokenRecord } {
  if (!token) throw slackError("not_authed");
  const rec = state.tokens.get(token);
  const ws = rec ? state.workspaces.get(rec.teamId) : undefined;
  if (!rec || !ws) throw slackError("invalid_auth");
  if (rec.revokedWith) throw slackError(rec.revokedWith);
  if (rec.expiresAt !== undefined && state.now() >= rec.expiresAt) throw slackError("token_expired");
  return { ws, token: rec };
}

/** Marks a token dead; later calls with it answer `error` (Slack says `invalid_auth` for most). */
export function revokeToken(state: StandInState, token: string, error = "invalid_auth"): boolean {
  const rec = state.tokens.get(token);
  if (!rec) return false;
  rec.revokedWith = error;
  return true;
}

export function revokeTeam(state: StandInState, teamId: string, error = "invalid_auth"): void {
  for (const rec of state.tokens.values()) if (rec.teamId === teamId) rec.revokedWith = error;
  for (const [refresh, rec] of state.refreshTokens)
    if (rec.teamId === teamId) state.refreshTokens.delete(refresh);
}

/** A fresh expiring bot token and its refresh token, shaped like Slack's rotating ones (`xoxe.xoxb-…`). */
export function mintRotating(
  state: StandInState,
  teamId: string,
  ttlSec: number,
): { access: string; refresh: string } {
  const access = `xoxe.xoxb-1-${randomAlnum(24)}`;
  const refresh = `xoxe-1-${randomAlnum(32)}`;
  state.tokens.set(access, {
    token: access,
    teamId,
    kind: "bot",
    expiresAt: state.now() + ttlSec * 1000,
    revokedWith: undefined,
  });
  state.refreshTokens.set(refresh, { teamId, used: false });
  return { access, refresh };
}

/** A new non-expiring bot token for the team (a reinstall after the old one was revoked). */
export function mintPlain(state: StandInState, teamId: string): string {
  const token = `xoxb-${teamId}-${randomAlnum(24)}`;
  state.tokens.set(token, { token, teamId, kind: "bot", expiresAt: undefined, revokedWith: undefined });
  return token;
}

/** Shortens every live token of the team to end `graceMs` from now (the old ones after a refresh). */
export function expireTeamTokens(state: StandInState, teamId: string, except: string, graceMs: number): void {
  const until = state.now() + graceMs;
  for (const rec of state.tokens.values()) {
    if (rec.teamId !== teamId || rec.token === except || rec.expiresAt === undefined) continue;
    rec.expiresAt = Math.min(rec.expiresAt, until);
  }
}

/** A one-time OAuth code for installing into `teamId`, as the authorize redirect would carry. */
export function mintOAuthCode(
  state: StandInState,
  teamId: string,
  userId: string,
  scopes?: string[],
): string {
  const code = `${Math.floor(state.now() / 1000)}.${randomHex(16)}`;
  state.oauthCodes.set(code, { teamId, userId, createdAt: state.now(), used: false, scopes });
  return code;
}
