import type { InstallationQuery, InstallationStore } from "@slack/bolt";
import { createTtlMemo } from "../bounded-map.ts";
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
   * in the process (30 s when installed, 5 s when not), so a request costs it no Redis read.
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

/** How long a process trusts the installer it read (as long as `installed` trusts an installation). */
const INSTALLER_HOLD_MS = 30_000;

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
  // The installer decides who manages (access checks before a modal's ack): remembered like the
  // installation, and forgotten with it when this process stores or deletes one.
  const installers = createTtlMemo<{ userId: string | undefined }>(10_000);
  let forgets = 0;
  const installerOf: InstallLayer["installerOf"] = async (ref) => {
    const key = refLabel(ref);
    const kept = installers.get(key);
    if (kept) return kept.userId;
    const before = forgets;
    const userId = await records.installerOf(ref);
    // Not held when it was forgotten meanwhile: the read may be from before the change.
    if (before === forgets) installers.set(key, { userId }, Date.now() + INSTALLER_HOLD_MS);
    return userId;
  };
  const forget = (ref: WorkspaceRef) => {
    forgets += 1;
    rotation.forget(ref);
    installers.delete(refLabel(ref));
  };
  const installationStore = withTokenRotation(records, rotation, forget);
  const known = new Map<string, { yes: boolean; until: number }>();
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
    const key = refLabel(ref);
    const held = known.get(key);
    if (held && held.until > Date.now()) return held.yes;
    const yes = await records.exists(ref);
    if (known.size >= 10_000) known.clear();
    known.set(key, { yes, until: Date.now() + (yes ? 30_000 : 5_000) });
    return yes;
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
