import { z } from "zod";
import { AppError } from "../errors.ts";

/**
 * The one Slack call token rotation makes: `oauth.v2.access` with `grant_type=refresh_token`. Plain
 * fetch against a configurable base URL (tests point it at the Slack stand-in); the reply is
 * untrusted and checked. Error messages carry Slack's error code, never a token.
 */

export interface RefreshedToken {
  accessToken: string;
  refreshToken: string;
  expiresInSec: number;
}

/** Exchanges a refresh token for a new bot token pair. */
export type RefreshBotToken = (refreshToken: string) => Promise<RefreshedToken>;

export interface TokenRefresherOptions {
  /** Web API base with a trailing slash, e.g. `https://slack.com/api/` (config `slack.apiUrl`). */
  slackApiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const replySchema = z.union([
  z.object({
    ok: z.literal(true),
    token_type: z.literal("bot"),
    access_token: z.string().min(1),
    refresh_token: z.string().min(1),
    expires_in: z.number().int().positive(),
  }),
  z.object({ ok: z.literal(false), error: z.string().max(100) }),
]);

/**
 * @example
 * const refresh = createTokenRefresher({ slackApiUrl: config.slack.apiUrl, clientId, clientSecret });
 * const { accessToken, expiresInSec } = await refresh(installation.bot.refreshToken);
 */
export function createTokenRefresher(options: TokenRefresherOptions): RefreshBotToken {
  const doFetch = options.fetch ?? fetch;
  const url = new URL("oauth.v2.access", options.slackApiUrl).toString();
  const timeoutMs = options.timeoutMs ?? 10_000;

  return async (refreshToken) => {
    const body = new URLSearchParams({
      client_id: options.clientId,
      client_secret: options.clientSecret,
      grant_type: "refresh_token",
      refresh_token: refreshToken,
    });
    let res: Response;
    try {
      res = await doFetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new AppError("unavailable", "Slack did not answer the token refresh", { cause: err });
    }
    if (res.status === 429 || res.status >= 500) {
      throw new AppError("unavailable", `Slack answered the token refresh with HTTP ${res.status}`, {
        details: { status: res.status, retryAfter: res.headers.get("retry-after") ?? undefined },
      });
    }
    const parsed = replySchema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success)
      throw new AppError("bad_response", "Slack's token refresh reply has an unexpected shape");
    const reply = parsed.data;
    if (!reply.ok) {
      throw new AppError("token_refresh_failed", `Slack refused the token refresh: ${reply.error}`, {
        details: { slackError: reply.error },
      });
    }
    return {
      accessToken: reply.access_token,
      refreshToken: reply.refresh_token,
      expiresInSec: reply.expires_in,
    };
  };
}
