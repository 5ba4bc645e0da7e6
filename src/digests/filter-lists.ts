import type { FilterOption } from "../analytics/types.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/** The workspace's asset and scanner lists; null where the endpoint offers none. */
export interface FilterLists {
  assets: FilterOption[] | null;
  scanners: FilterOption[] | null;
}

/** Options of createFilterListsCache. Defaults in brackets. */
export interface FilterListsCacheOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** How long stored lists answer type-ahead [6 h]; every digest built refreshes them. */
  ttlMs?: number;
  /** How often one process rewrites a workspace's lists at most [60 s]: a busy workspace's digests share one write. */
  refreshMs?: number;
}

export interface FilterListsCache {
  get(ref: WorkspaceRef): Promise<FilterLists | null>;
  /** Stores the lists. */
  put(ref: WorkspaceRef, lists: FilterLists): Promise<void>;
  /** Stores the lists unless this process stored them within `refreshMs`. */
  offer(ref: WorkspaceRef, lists: FilterLists): Promise<void>;
}

/**
 * The filter lists as type-ahead reads them: one Redis read, no GraphQL and no digest on the path
 * Slack waits on. Filled by whoever builds a digest (off that path). Stored next to the cached
 * insights replies, so a new API key or an uninstall drops them with the rest.
 */
export function createFilterListsCache(o: FilterListsCacheOptions): FilterListsCache {
  const ttlMs = o.ttlMs ?? 6 * 3_600_000;
  const refreshMs = o.refreshMs ?? 60_000;
  const key = (ref: WorkspaceRef) => o.keys.insightsCache(ref, "filter-lists");
  const stored = new Map<string, number>();
  return {
    async get(ref) {
      const raw = await o.redis.get(key(ref));
      if (!raw) return null;
      const parsed = JSON.parse(raw) as Partial<FilterLists>;
      return { assets: parsed.assets ?? null, scanners: parsed.scanners ?? null };
    },
    async put(ref, lists) {
      const k = key(ref);
      stored.set(k, Date.now());
      if (stored.size > 10_000) stored.clear();
      await o.redis.set(k, JSON.stringify(lists), "PX", ttlMs);
    },
    async offer(ref, lists) {
      if (Date.now() - (stored.get(key(ref)) ?? Number.NEGATIVE_INFINITY) < refreshMs) return;
      await this.put(ref, lists);
    },
  };
}
