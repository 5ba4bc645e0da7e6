import { createHash } from "node:crypto";
import type { FilterOption } from "../analytics/types.ts";
import { createTtlMemo } from "../bounded-map.ts";
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
  /**
   * How long stored lists are kept as a guess of the account's lists [32 days: a monthly schedule's
   * gap]: a scheduled digest's drivers are cut by them before its reply is in, so its own question and
   * its slices go out as one request; the reply's lists are the check (see drivers-engine.ts).
   */
  keepMs?: number;
  /** How often one process rewrites a workspace's lists at most [60 s]: a busy workspace's digests share one write. */
  refreshMs?: number;
  /**
   * Bytes of stored text whose parsed lists one process keeps, to hand the same objects back [8 MB:
   * about 19 accounts of 5,000 assets, as many as the count of 20 it replaced, or some 2,000 small
   * ones]. A list holds about 1.7 times its text once parsed, so with its text about 22 MB at most.
   */
  readMaxBytes?: number;
}

export interface FilterListsCache {
  /** The lists if stored within `ttlMs` (type-ahead). */
  get(ref: WorkspaceRef): Promise<FilterLists | null>;
  /** The lists as last stored, within `keepMs`: a guess for work that checks it against a reply. */
  held(ref: WorkspaceRef): Promise<FilterLists | null>;
  /** Stores the lists. */
  put(ref: WorkspaceRef, lists: FilterLists): Promise<void>;
  /** Stores the lists unless this process stored them within `refreshMs`. */
  offer(ref: WorkspaceRef, lists: FilterLists): Promise<void>;
}

/**
 * Stored as one JSON object whose first member is its head, `{"_":"v3:<stamp>:<stored at, epoch
 * ms>","assets":…,"scanners":…}`, the stamp a hash of the lists' JSON: a reader that holds the lists
 * of a stamp reads the 41 bytes of the head alone (GETRANGE), not the whole text (0.4 MB for 5,000
 * assets), on every keystroke. The time tells type-ahead's lists from older ones kept as a guess.
 * Plain JSON, so that releases up to 0.0.3, which parse the text whole, read it too while they run
 * beside this one in a rolling deploy (0.1.0's head before the JSON left their type-ahead offering
 * nothing); 0.1.0 reads it as plain JSON, in full. Text stored as `v2:<stamp>:<at>\n<json>` (0.1.0),
 * `v1:<stamp>\n<json>` (no time: kept at most `ttlMs`) or before the stamp (plain JSON) is still read.
 */
const HEAD = /^(?:\{"_":"v3:([0-9a-f]{16}):(\d{13})",|v([12]):([0-9a-f]{16})(?::(\d{13}))?\n)/;
const HEAD_BYTES = 41;

/** What a stored text's head says: the stamp, when it was stored, and where the lists' JSON starts. */
function headOf(text: string): { stamp: string; at?: number; json: number } | null {
  const m = HEAD.exec(text);
  if (!m) return null;
  // v3: the head is a member of the JSON, which is the whole text.
  if (m[1]) return { stamp: m[1], at: Number(m[2]), json: 0 };
  return { stamp: m[4] as string, at: m[5] ? Number(m[5]) : undefined, json: m[0].length };
}

/** The lists' JSON with the head as its first member (the lists' JSON always opens with `{"assets"`). */
const withHead = (text: string, stamp: string, at: number) => `{"_":"v3:${stamp}:${at}",${text.slice(1)}`;

const stampOf = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * The filter lists as type-ahead reads them: one Redis read, no GraphQL and no digest on the path
 * Slack waits on. Filled by whoever builds a digest (off that path). Stored next to the cached
 * insights replies, so a new API key or an uninstall drops them with the rest.
 */
export function createFilterListsCache(o: FilterListsCacheOptions): FilterListsCache {
  const ttlMs = o.ttlMs ?? 6 * 3_600_000;
  const keepMs = Math.max(ttlMs, o.keepMs ?? 32 * 86_400_000);
  const refreshMs = o.refreshMs ?? 60_000;
  const key = (ref: WorkspaceRef) => o.keys.insightsCache(ref, "filter-lists");
  const stored = new Map<string, number>();
  // The last lists read per workspace, with the stamp of the text they came from: while Redis holds
  // the same stamp, type-ahead gets the same objects back, so what the menus work out per list (its
  // choices in order, their names in lower case) is kept between keystrokes instead of redone for
  // thousands of assets on every one. Bounded by their text's size, least recently read first out;
  // Redis stays the source of truth.
  const read = createTtlMemo<{ stamp: string; lists: FilterLists }>(o.readMaxBytes ?? 8_000_000);
  const hold = (k: string, stamp: string, lists: FilterLists, bytes: number) =>
    read.set(k, { stamp, lists }, Date.now() + keepMs, bytes);
  /** When the head says the lists were stored (v1 and plain JSON were kept `ttlMs` at most: fresh). */
  const storedAt = (head: ReturnType<typeof headOf>) => head?.at ?? Date.now();
  // Concurrent reads of one workspace's lists (a slot's first deliveries) share one.
  const reading = new Map<string, Promise<{ lists: FilterLists; at: number } | null>>();
  const load = async (k: string): Promise<{ lists: FilterLists; at: number } | null> => {
    const held = read.get(k);
    if (held) {
      const head = headOf(await o.redis.getrange(k, 0, HEAD_BYTES - 1));
      if (head?.stamp === held.stamp) return { lists: held.lists, at: storedAt(head) };
    }
    const raw = await o.redis.get(k);
    if (!raw) {
      read.delete(k);
      return null;
    }
    const head = headOf(raw);
    const parsed = JSON.parse(head ? raw.slice(head.json) : raw) as Partial<FilterLists>;
    const lists = { assets: parsed.assets ?? null, scanners: parsed.scanners ?? null };
    // Plain JSON from before the stamp: held under a stamp no head can match, so read in full each time.
    hold(k, head?.stamp ?? "unstamped", lists, raw.length);
    return { lists, at: storedAt(head) };
  };
  const shared = (k: string) => {
    let p = reading.get(k);
    if (!p) {
      p = load(k).finally(() => reading.delete(k));
      reading.set(k, p);
    }
    return p;
  };
  return {
    async get(ref) {
      const found = await shared(key(ref));
      return found && Date.now() - found.at < ttlMs ? found.lists : null;
    },
    async held(ref) {
      return (await shared(key(ref)))?.lists ?? null;
    },
    async put(ref, lists) {
      const k = key(ref);
      stored.set(k, Date.now());
      if (stored.size > 10_000) stored.clear();
      const text = JSON.stringify({ assets: lists.assets, scanners: lists.scanners });
      await o.redis.set(k, withHead(text, stampOf(text), Date.now()), "PX", keepMs);
    },
    async offer(ref, lists) {
      if (Date.now() - (stored.get(key(ref)) ?? Number.NEGATIVE_INFINITY) < refreshMs) return;
      await this.put(ref, lists);
    },
  };
}
