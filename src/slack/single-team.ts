import type { Authorize, Logger as BoltLogger } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";

/**
 * Authorisation for one workspace from SLACK_BOT_TOKEN. Bolt's built-in version answers every
 * request with the bot's own team, whatever team sent it; this one refuses a request from any
 * other team, so a stray or forged team id can never read this workspace's key or data.
 */
type Identity = { teamId?: string; enterpriseId?: string; botId?: string; botUserId?: string };
type Source = { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean };

/** Whether a request from `source` is for the workspace (or org) the bot token belongs to. */
const serves = (me: Identity, source: Source) =>
  source.teamId === undefined ||
  source.teamId === me.teamId ||
  (source.isEnterpriseInstall === true &&
    source.enterpriseId !== undefined &&
    source.enterpriseId === me.enterpriseId);

export function singleTeamAuthorize(
  botToken: string,
  slackApiUrl: string,
  logger: BoltLogger,
  timeoutMs: number,
): Authorize<boolean> & {
  /**
   * Whether a request from `source` is this workspace's, from the identity already known; undefined
   * while none is (before the first auth.test answered, or while Slack is unreachable).
   */
  known(source: Source): boolean | undefined;
} {
  // The app's logger, not the WebClient's own console one: its lines stay JSON and redacted.
  const client = new WebClient(botToken, {
    slackApiUrl,
    retryConfig: { retries: 2 },
    logger,
    timeout: timeoutMs,
  });
  let auth: Promise<Identity> | undefined;
  let settled: Identity | undefined;
  const identity = () => {
    auth ??= client.auth.test().then(
      (r) => {
        settled = {
          teamId: r.team_id,
          enterpriseId: r.enterprise_id || undefined,
          botId: r.bot_id,
          botUserId: r.user_id,
        };
        return settled;
      },
      (err: unknown) => {
        auth = undefined; // retry auth.test on the next request rather than failing forever
        throw err;
      },
    );
    return auth;
  };
  const authorize: Authorize<boolean> = async (source) => {
    const me = await identity();
    if (!serves(me, source)) {
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
  return Object.assign(authorize, {
    known: (source: Source) => (settled ? serves(settled, source) : undefined),
  });
}
