import { randomBytes } from "node:crypto";
import { App, type CustomRoute, LogLevel } from "@slack/bolt";
import { commandListener } from "../../commands/index.ts";
import type { SlackConfig } from "../config.ts";
import { COMMAND } from "../ids.ts";
import type { OAuthAppOptions } from "../install/index.ts";
import { withLogContext } from "../log.ts";
import { boltLogger } from "./bolt-logger.ts";
import { errorReply } from "./error-reply.ts";
import { healthRoutes } from "./health.ts";
import { registerActions } from "./listeners/actions/index.ts";
import { registerEvents } from "./listeners/events/index.ts";
import { registerOptions } from "./listeners/options/index.ts";
import { registerViews } from "./listeners/views/index.ts";
import type { SlackDeps } from "./services.ts";
import { singleTeamAuthorize } from "./single-team.ts";

export interface SlackAppOptions {
  slack: SlackConfig;
  deps: SlackDeps;
  customRoutes?: CustomRoute[];
  /** Extra listeners (subscriptions, lifecycle) registered by the composition root. */
  extend?: (app: App) => void;
  /** OAuth mode (many workspaces): replaces the single bot token. */
  oauth?: OAuthAppOptions;
}

/**
 * The Bolt app: HTTP receiver on /slack/events (or Socket Mode when an app token is set),
 * single-workspace authorisation from the bot token, Web API calls to `slack.apiUrl`.
 */
export function createSlackApp({ slack, deps, customRoutes = [], extend, oauth }: SlackAppOptions): App {
  const socketMode = Boolean(slack.appToken);
  const app = new App({
    signingSecret: slack.signingSecret,
    // Bolt refuses a custom authorize next to OAuth options: one or the other.
    ...(oauth
      ? socketMode
        ? { ...oauth, installerOptions: { ...oauth.installerOptions, port: slack.installerPort } }
        : oauth
      : { authorize: singleTeamAuthorize(slack.botToken as string, slack.apiUrl, boltLogger(deps.logger)) }),
    appToken: slack.appToken,
    socketMode,
    logger: boltLogger(deps.logger),
    logLevel: LogLevel.INFO,
    clientOptions: {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 2, factor: 2, minTimeout: 200, maxTimeout: 2000 },
    },
    customRoutes: healthRoutes(deps.redis, customRoutes),
    // Ack first, work after: Slack's 3 s budget belongs to the ack, not to our GraphQL calls.
    processBeforeResponse: false,
  });

  // Every log line of one Slack request carries its id, whichever module writes it.
  app.use(async ({ next }) => withLogContext({ requestId: randomBytes(6).toString("hex") }, next));
  app.command(COMMAND, commandListener(deps));
  registerActions(app, deps);
  registerViews(app, deps);
  registerOptions(app, deps);
  registerEvents(app, deps);
  extend?.(app);

  app.error(async (error) => {
    // Last line of defence: listeners catch their own errors; this only logs what escaped.
    errorReply(error.original ?? error, deps.logger, { where: "bolt" });
  });
  return app;
}
