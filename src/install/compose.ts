import type { InstallationStore } from "@slack/bolt";
import type { KeyringEntry, SlackConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { type OAuthAppOptions, type OAuthAppOptionsInput, oauthAppOptions } from "./bolt-options.ts";
import { withTokenRotation } from "./bolt-store.ts";
import type { LifecycleDeps, RemoveSchedulers } from "./purge.ts";
import { createTokenRefresher } from "./refresh.ts";
import { createTokenRotation, type TokenRotation } from "./rotation.ts";
import { createInstallationStore, type InstallationRecords } from "./store.ts";

/**
 * Builds the whole multi-workspace layer from one set of collaborators, for the composition roots:
 * the web root hands `appOptions()` to Bolt and registers `lifecycle`; the worker uses `botToken`.
 */

export interface InstallLayerOptions {
  redis: RedisClient;
  keyring: readonly KeyringEntry[];
  prefix?: string;
  logger: Logger;
  /** Needs clientId, clientSecret, stateSecret and apiUrl. */
  slack: SlackConfig;
  /** The subscriptions engine's `removeWorkspace`. */
  removeSchedulers?: RemoveSchedulers;
  /** Refresh bot tokens this close to expiry (default 7,200 s). */
  refreshWithinSec?: number;
  clock?: () => Date;
  fetch?: typeof fetch;
}

export interface InstallLayer {
  records: InstallationRecords;
  rotation: TokenRotation;
  /** The store to give Bolt: fetches rotate under the lock and hide refresh tokens from Bolt. */
  installationStore: InstallationStore;
  installerOf: InstallationRecords["installerOf"];
  botToken: TokenRotation["botToken"];
  lifecycle: LifecycleDeps;
  appOptions(
    extra?: Pick<OAuthAppOptionsInput, "redirectUri" | "stateVerification" | "scopes">,
  ): OAuthAppOptions;
}

/**
 * @example
 * const install = createInstallLayer({ redis, keyring, logger, slack: config.slack, removeSchedulers });
 * const app = new App({ signingSecret, ...install.appOptions(), clientOptions: { slackApiUrl } });
 * // and the lifecycle listeners: lifecycleEvents(install.lifecycle) in the app's routes
 */
export function createInstallLayer(o: InstallLayerOptions): InstallLayer {
  const { clientId, clientSecret } = o.slack;
  if (!clientId || !clientSecret) {
    throw new ConfigError("OAuth needs SLACK_CLIENT_ID and SLACK_CLIENT_SECRET", [
      "SLACK_CLIENT_ID",
      "SLACK_CLIENT_SECRET",
    ]);
  }
  const logger = o.logger.child({ component: "install" });
  const records = createInstallationStore({ ...o, logger });
  const refresh = createTokenRefresher({
    slackApiUrl: o.slack.apiUrl,
    clientId,
    clientSecret,
    fetch: o.fetch,
  });
  const rotation = createTokenRotation({
    records,
    redis: o.redis,
    prefix: o.prefix,
    refresh,
    refreshWithinSec: o.refreshWithinSec,
    clock: o.clock,
    logger,
  });
  const installationStore = withTokenRotation(records, rotation);
  return {
    records,
    rotation,
    installationStore,
    installerOf: records.installerOf,
    botToken: rotation.botToken,
    lifecycle: {
      redis: o.redis,
      keys: createKeyScheme({ prefix: o.prefix }),
      records,
      removeSchedulers: o.removeSchedulers,
      logger,
    },
    appOptions: (extra = {}) => oauthAppOptions({ slack: o.slack, installationStore, ...extra }),
  };
}
