import type { InstallationQuery, InstallationStore } from "@slack/bolt";
import { createHeldReads } from "../bounded-map.ts";
import type { KeyringEntry, SlackConfig } from "../config.ts";
import { ConfigError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { createKeyScheme, type WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { type OAuthAppOptions, type OAuthAppOptionsInput, oauthAppOptions } from "./bolt-options.ts";
import { withTokenRotation } from "./bolt-store.ts";
import type { LifecycleDeps, RemoveSchedulers } from "./purge.ts";
import { createTokenRefresher } from "./refresh.ts";
import { refLabel, refOfQuery } from "./refs.ts";
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
  /**
   * Whether the workspace a request names has an installation: the acking path's check, remembered
   * in the process (30 s when installed, 5 s when not; forgotten when this process stores, deletes or
   * purges an installation), so a request costs it no Redis read.
   */
  installed(team: {
    teamId?: string;
    enterpriseId?: string;
    isEnterpriseInstall?: boolean;
  }): Promise<boolean>;
  botToken: TokenRotation["botToken"];
  lifecycle: LifecycleDeps;
  appOptions(
    extra?: Pick<OAuthAppOptionsInput, "redirectUri" | "stateVerification" | "scopes">,
  ): OAuthAppOptions;
}

/** How long a process trusts what it read of an installation: its installer, and that it exists. */
const INSTALLER_HOLD_MS = 30_000;
/** How long it trusts that a workspace has none. */
const NOT_INSTALLED_HOLD_MS = 5_000;

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
  // What the acking path asks of an installation, remembered a while and forgotten when this process
  // stores, deletes or purges one: the installer (who manages; checked before a modal's ack), and
  // whether one exists (the fast path's admission; a "no" for a shorter time, so a new install is
  // served soon wherever it was made).
  // Both are read again in the background in the last quarter of their hold, so a busy workspace's
  // acks never wait on Redis for them; held on the layer's clock, as token rotation is.
  // No Date made per read without a test clock: the fast path asks on every request.
  const clock = o.clock;
  const now = clock ? () => clock().getTime() : Date.now;
  const installers = createHeldReads<string | undefined>(10_000, now, { refreshAhead: 0.25 });
  const installerOf: InstallLayer["installerOf"] = (ref) =>
    installers.read(
      refLabel(ref),
      () => records.installerOf(ref),
      (_, at) => at + INSTALLER_HOLD_MS,
    );
  const known = createHeldReads<boolean>(10_000, now, { refreshAhead: 0.25 });
  const forget = (ref: WorkspaceRef) => {
    const key = refLabel(ref);
    rotation.forget(ref);
    installers.forget(key);
    known.forget(key);
  };
  const installationStore = withTokenRotation(records, rotation, forget);
  const installed: InstallLayer["installed"] = async (team) => {
    let ref: WorkspaceRef;
    try {
      ref = refOfQuery({
        teamId: team.teamId,
        enterpriseId: team.enterpriseId,
        isEnterpriseInstall: team.isEnterpriseInstall === true,
      } as InstallationQuery<boolean>);
    } catch {
      return false;
    }
    return known.read(
      refLabel(ref),
      () => records.exists(ref),
      (yes, at) => at + (yes ? INSTALLER_HOLD_MS : NOT_INSTALLED_HOLD_MS),
    );
  };
  return {
    records,
    rotation,
    installationStore,
    installerOf,
    installed,
    botToken: rotation.botToken,
    lifecycle: {
      redis: o.redis,
      keys: createKeyScheme({ prefix: o.prefix }),
      records,
      removeSchedulers: o.removeSchedulers,
      logger,
      forget,
    },
    appOptions: (extra = {}) => oauthAppOptions({ slack: o.slack, installationStore, ...extra }),
  };
}
