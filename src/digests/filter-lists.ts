import type { FilterOption } from "../analytics/types.ts";
import { keepRecent } from "../bounded-map.ts";
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
  /**
   * Workspaces whose last read lists one process keeps, to hand the same objects back [20]. A list of
   * 5,000 assets holds about a megabyte parsed, with its text: the bound is what type-ahead may keep.
   */
  readMax?: number;
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
  const readMax = o.readMax ?? 20;
  const key = (ref: WorkspaceRef) => o.keys.insightsCache(ref, "filter-lists");
  const stored = new Map<string, number>();
  // The last lists read per workspace, with the text they came from: while the stored text is the
  // same, type-ahead gets the same objects back, so what the menus work out per list (its choices in
  // order, their names in lower case) is kept between keystrokes instead of redone for thousands of
  // assets on every one. Bounded, least recently read first out; Redis stays the source of truth.
  const read = new Map<string, { raw: string; lists: FilterLists }>();
  return {
    async get(ref) {
      const k = key(ref);
      const raw = await o.redis.get(k);
      if (!raw) return null;
      const held = read.get(k);
      if (held?.raw === raw) {
        keepRecent(read, k, held, readMax);
        return held.lists;
      }
      const parsed = JSON.parse(raw) as Partial<FilterLists>;
      const lists = { assets: parsed.assets ?? null, scanners: parsed.scanners ?? null };
      keepRecent(read, k, { raw, lists }, readMax);
      return lists;
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
