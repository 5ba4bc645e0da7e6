import { AppError } from "../errors.ts";
import { type Logger, silentLogger } from "../log.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { unlinkKeys } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { refLabel } from "./refs.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * Removes everything a workspace left in Redis: installation, API key, subscriptions, caches,
 * delivery claims, locks (all under its key namespace), and, through the hook, its BullMQ job
 * schedulers. Idempotent, and safe to run twice at once: every step deletes what is there and
 * tolerates what is already gone.
 */

/** Removes the workspace's job schedulers (the subscriptions engine's `removeWorkspace`). */
export type RemoveSchedulers = (ref: WorkspaceRef) => Promise<void>;

export interface PurgeOptions {
  redis: RedisClient;
  keys: KeyScheme;
  ref: WorkspaceRef;
  removeSchedulers?: RemoveSchedulers;
  logger?: Logger;
  /** SCAN COUNT hint. */
  batchSize?: number;
}

/** What leaving needs: the purge's stores, and the installation records for revoked user tokens. */
export interface LifecycleDeps {
  redis: RedisClient;
  keys: KeyScheme;
  records: Pick<InstallationRecords, "removeUserToken">;
  removeSchedulers?: RemoveSchedulers;
  logger: Logger;
  /** Drops what this process remembers of the workspace's installation once it changed. */
  forget?: (ref: WorkspaceRef) => void;
}

export interface PurgeResult {
  /** Keys this run unlinked (a concurrent purge may have taken the rest). */
  deleted: number;
  /** Keys of teams in the enterprise with an installation of their own (org-wide purge only). */
  spared: number;
}

/**
 * For an org-wide purge: which keys belong to a team of the enterprise that installed the app on
 * its own (kept, its own uninstall will clear them). Workspace purges keep nothing.
 */
function ownInstallFilter(redis: RedisClient, keys: KeyScheme, orgWide: boolean) {
  const known = new Map<string, boolean>();
  return async (key: string): Promise<boolean> => {
    const teamRef = keys.parse(key)?.ref;
    if (!orgWide || !teamRef?.teamId) return false;
    let own = known.get(teamRef.teamId);
    if (own === undefined) {
      own = (await redis.exists(keys.installation(teamRef))) === 1;
      known.set(teamRef.teamId, own);
    }
    return own;
  };
}

/** Every key matching any of the patterns, page by page (all masters of a cluster). */
async function* scanAll(o: PurgeOptions, patterns: string[]): AsyncGenerator<string[]> {
  for (const pattern of patterns) yield* scanKeys(o.redis, pattern, o.batchSize);
}

/** Teams of the enterprise holding data without an install of their own; their schedulers go too. */
async function strayTeams(o: PurgeOptions, patterns: string[], keep: (key: string) => Promise<boolean>) {
  const teams = new Map<string, WorkspaceRef>();
  for await (const page of scanAll(o, patterns)) {
    for (const key of page) {
      const teamRef = o.keys.parse(key)?.ref;
      if (teamRef?.teamId && !teams.has(teamRef.teamId) && !(await keep(key)))
        teams.set(teamRef.teamId, teamRef);
    }
  }
  return [...teams.values()];
}

/**
 * @example
 * await purgeWorkspace({ redis, keys, ref, removeSchedulers: (ref) => subscriptions.removeWorkspace(ref), logger });
 */
export async function purgeWorkspace(options: PurgeOptions): Promise<PurgeResult> {
  const { redis, keys, ref } = options;
  const logger = options.logger ?? silentLogger();
  const label = refLabel(ref);
  // Installation and key first: from here on no request authorises or reads data for the workspace.
  // Both keys share the workspace's hash tag: one UNLINK on a cluster too.
  let deleted = await redis.unlink(keys.installation(ref), keys.apiKey(ref));
  const orgWide = Boolean(ref.isEnterpriseInstall && ref.enterpriseId);
  const patterns = orgWide
    ? keys.enterpriseKeyPatterns(ref.enterpriseId as string)
    : [keys.workspaceKeyPattern(ref)];
  const keep = ownInstallFilter(redis, keys, orgWide);

  // Schedulers before the scan: the engine finds them through the subscription index it deletes.
  let hookError: unknown;
  for (const target of [ref, ...(orgWide ? await strayTeams(options, patterns, keep) : [])]) {
    try {
      await options.removeSchedulers?.(target);
    } catch (err) {
      hookError ??= err;
      logger.error({ workspace: refLabel(target), err }, "removing job schedulers failed; purging the rest");
    }
  }

  // Two passes: the second catches keys a request already in flight wrote during the first.
  let spared = 0;
  for (let pass = 0; pass < 2; pass++) {
    for await (const page of scanAll(options, patterns)) {
      const doomed: string[] = [];
      for (const key of page) {
        if (!(await keep(key))) doomed.push(key);
        else if (pass === 0) spared++;
      }
      // An org-wide purge spans teams, so hash slots: unlinkKeys splits what a cluster would refuse.
      deleted += await unlinkKeys(redis, doomed);
    }
  }
  logger.info({ workspace: label, deleted, spared }, "workspace purged");
  if (hookError !== undefined) {
    throw new AppError("purge_incomplete", `Job schedulers of ${label} could not be removed`, {
      cause: hookError,
    });
  }
  return { deleted, spared };
}
