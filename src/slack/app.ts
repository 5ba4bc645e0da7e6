import { App, type CustomRoute, LogLevel } from "@slack/bolt";
import type { SlackConfig } from "../config.ts";
import type { OAuthAppOptions } from "../install/index.ts";
import { withLogContext } from "../log.ts";
import { randomId } from "../random-id.ts";
import { boltLogger } from "./bolt-logger.ts";
import { deadlineFetch, SLACK_TIMEOUT_MS } from "./deadline-fetch.ts";
import { errorReply } from "./error-reply.ts";
import { type Admit, installFrame, type Routes } from "./frame/index.ts";
import { healthRoutes } from "./health.ts";
import type { AppServices } from "./services.ts";
import { singleTeamAuthorize } from "./single-team.ts";

export interface SlackAppOptions {
  slack: SlackConfig;
  deps: AppServices;
  /** Everything the app answers; the composition root assembles the tables. */
  routes: Routes;
  customRoutes?: CustomRoute[];
  /** OAuth mode (many workspaces): replaces the single bot token. */
  oauth?: OAuthAppOptions;
  /** OAuth mode: whether a workspace has an installation (the acking path's check, see frame/fast-path.ts). */
  installed?: Admit;
  /** What /readyz reports besides Redis' answer (Redis' maxmemory-policy). */
  readiness?: () => Record<string, unknown>;
  /** What the process still waits for before it can serve (/readyz answers 503 naming it). */
  waitingFor?: () => string | undefined;
  /** Why the process must not serve although it runs (/readyz answers 503 naming it). */
  problem?: () => string | undefined;
}

/**
 * The Bolt app: HTTP receiver on /slack/events (or Socket Mode when an app token is set),
 * single-workspace authorisation from the bot token, Web API calls to `slack.apiUrl`, and the
 * listener frame in front of every handler.
 */
/**
 * The Web API client options of the Bolt app, which it also hands to the OAuth installer and uses
 * for respond(): a few quick retries, and a deadline on every call and response_url post (the
 * client's own default is none).
 */
export function slackClientOptions(slack: Pick<SlackConfig, "apiUrl" | "timeoutMs">) {
  const timeout = slack.timeoutMs ?? SLACK_TIMEOUT_MS;
  return {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
    timeout,
    fetch: deadlineFetch(timeout),
  };
}

export function createSlackApp({
  slack,
  deps,
  routes,
  customRoutes = [],
  oauth,
  installed,
  readiness,
  waitingFor,
  problem,
}: SlackAppOptions): App {
  const socketMode = Boolean(slack.appToken);
  const authorize = oauth
    ? undefined
    : singleTeamAuthorize(
        slack.botToken as string,
        slack.apiUrl,
        boltLogger(deps.logger),
        slack.timeoutMs ?? SLACK_TIMEOUT_MS,
      );
  // Requests handed off before Bolt's path are admitted by the same rule Bolt's authorize applies,
  // from the token's identity once known; until then (or while Slack is unreachable) they take
  // Bolt's path, whose authorize asks Slack.
  const admit: Admit | undefined = authorize ? async (team) => authorize.known(team) : installed;
  const app = new App({
    signingSecret: slack.signingSecret,
    // Bolt refuses a custom authorize next to OAuth options: one or the other.
    ...(oauth
      ? socketMode
        ? { ...oauth, installerOptions: { ...oauth.installerOptions, port: slack.installerPort } }
        : oauth
      : { authorize }),
    appToken: slack.appToken,
    socketMode,
    // In Socket Mode Bolt serves the health routes on a server of its own, on this port (else 3000).
    ...(socketMode ? { port: slack.installerPort } : {}),
    logger: boltLogger(deps.logger),
    logLevel: LogLevel.INFO,
    clientOptions: slackClientOptions(slack),
    customRoutes: healthRoutes(deps.redis, customRoutes, readiness, waitingFor, problem),
    // Ack first, work after: Slack's 3 s budget belongs to the ack, not to our GraphQL calls.
    processBeforeResponse: false,
  });

  // Every log line of one Slack request carries its id, whichever module writes it.
  app.use(async ({ next }) => withLogContext({ requestId: randomId() }, next));
  installFrame(app, deps, routes, admit);

  app.error(async (error) => {
    // Last line of defence: the frame answers every error it sees; this only logs what escaped it.
    errorReply(error.original ?? error, deps.logger, { where: "bolt" });
  });
  return app;
}
