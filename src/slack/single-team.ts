import type { Authorize, Logger as BoltLogger } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";

/**
 * Authorisation for one workspace from SLACK_BOT_TOKEN. Bolt's built-in version answers every
 * request with the bot's own team, whatever team sent it; this one refuses a request from any
 * other team, so a stray or forged team id can never read this workspace's key or data.
 */
export function singleTeamAuthorize(
  botToken: string,
  slackApiUrl: string,
  logger: BoltLogger,
  timeoutMs: number,
): Authorize<boolean> {
  // The app's logger, not the WebClient's own console one: its lines stay JSON and redacted.
  const client = new WebClient(botToken, {
    slackApiUrl,
    retryConfig: { retries: 2 },
    logger,
    timeout: timeoutMs,
  });
  let auth:
    | Promise<{ teamId?: string; enterpriseId?: string; botId?: string; botUserId?: string }>
    | undefined;
  const identity = () => {
    auth ??= client.auth.test().then(
      (r) => ({
        teamId: r.team_id,
        enterpriseId: r.enterprise_id || undefined,
        botId: r.bot_id,
        botUserId: r.user_id,
      }),
      (err: unknown) => {
        auth = undefined; // retry auth.test on the next request rather than failing forever
        throw err;
      },
    );
    return auth;
  };
  return async (source) => {
    const me = await identity();
    const sameTeam = source.teamId === undefined || source.teamId === me.teamId;
    const sameOrg =
      source.isEnterpriseInstall &&
      source.enterpriseId !== undefined &&
      source.enterpriseId === me.enterpriseId;
    if (!sameTeam && !sameOrg) {
      throw new AppError(
        "forbidden",
        "This app is installed for one workspace only; the request came from another.",
      );
    }
    return {
      botToken,
      botId: me.botId,
      botUserId: me.botUserId,
      teamId: me.teamId,
      enterpriseId: me.enterpriseId,
    };
  };
}
