import type { InsightsFilters, InsightsQuery, InsightsResult } from "../analytics/types.ts";
import { createTtlMemo } from "../bounded-map.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { digestToken, type KeyScheme, type WorkspaceRef } from "../store/keys.ts";
import { PACKED_FORM, packText, unpackText } from "../store/packed-text.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { lockToken, runScript, script } from "../store/scripts.ts";
import { secretTag } from "../store/secret-tag.ts";
import { createSharedLists } from "./shared-lists.ts";

/** What the source needs from the analytics client. */
export interface InsightsFetcher {
  /** With `lists: false`, the reply need not carry the account's asset and scanner lists. */
  insights(apiKey: string, q: InsightsQuery, opts?: { lists?: boolean }): Promise<InsightsResult>;
}

export interface InsightsCacheOptions {
  redis: RedisClient;
  keys: KeyScheme;
  client: InsightsFetcher;
  logger: Logger;
  /** How long a reply is reused (default 60 s): digests of one workspace within a minute share one request. */
  ttlMs?: number;
  /** Most replies kept per workspace [50]; the oldest go first. With `maxEntryBytes`, this bounds the cache's size. */
  maxEntries?: number;
  /** Replies larger than this (compressed) are not cached [256 KiB]. */
  maxEntryBytes?: number;
  /** How long a failure is remembered, so a down service is not hammered by every waiter (default 5 s). */
  errorTtlMs?: number;
  /** Upper bound on one fetch while others wait on it (default 30 s; longer than the client's retries). */
  lockMs?: number;
  pollMs?: number;
  /** How long this process reuses a reply it already holds, parsed [10 s; 0 = never]. */
  memoMs?: number;
  /** Most replies this process holds parsed [200]; the least recently stored go first. */
  memoEntries?: number;
  /**
   * For how long an account's asset and scanner lists, once a reply brought them, stand in for the
   * lists of its next replies, which are then asked without them [5 min; 0 = every reply brings its
   * own]. So a new asset reaches a digest's menu within this time.
   */
  listsMs?: number;
}

export interface InsightsCache {
  fetch(ref: WorkspaceRef, apiKey: string, query: InsightsQuery): Promise<InsightsResult>;
  /** Drops the workspace's cached replies (after the key changes). */
  invalidate(ref: WorkspaceRef): Promise<number>;
  /** The account's asset and scanner lists as a reply last brought them to this process, however long ago. */
  lists?(apiKey: string): InsightsFilters | undefined;
}

interface CachedEntry {
  ok: boolean;
  result?: InsightsResult;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

function canonical(q: InsightsQuery): string {
  // Key order and list order must not split the cache: the same question is the same key.
  return JSON.stringify({
    f: q.fromDay,
    t: q.toDay,
    a: [...(q.assetIds ?? [])].sort(),
    s: [...(q.scannerIds ?? [])].sort(),
    m: q.maxRules ?? null,
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// KEYS: cache, lock[, the same reply with its lists]. ARGV: lock token, lock ms. {1, value} cached;
// {2} locked by us; {0} someone else fetches.
const GET_OR_LOCK = script(`
local v = redis.call('get', KEYS[1])
if v then return {1, v} end
if KEYS[3] then
  v = redis.call('get', KEYS[3])
  if v then return {1, v} end
end
if redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {2, ''} end
return {0, ''}`);

// KEYS: cache, lock, index. ARGV: value ('' = none), ttl ms, lock token, now ms, max entries, cache key prefix.
// Stores the reply, evicts the workspace's oldest beyond the bound, releases our lock: one round trip.
const STORE_AND_UNLOCK = script(`
if ARGV[1] ~= '' then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('zadd', KEYS[3], ARGV[4], KEYS[1])
  redis.call('zremrangebyscore', KEYS[3], 0, tonumber(ARGV[4]) - tonumber(ARGV[2]))
  local over = redis.call('zcard', KEYS[3]) - tonumber(ARGV[5])
  if over > 0 then
    for _, k in ipairs(redis.call('zrange', KEYS[3], 0, over - 1)) do
      if string.sub(k, 1, #ARGV[6]) == ARGV[6] then redis.call('unlink', k) end
    end
    redis.call('zremrangebyrank', KEYS[3], 0, over - 1)
  end
  redis.call('pexpire', KEYS[3], ARGV[2])
end
if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end
return 1`);

/** Replies are stored deflated (JSON of daily series compresses several times over), as base64 text. */
const pack = (entry: CachedEntry) => packText(JSON.stringify(entry));

/**
 * Insights replies shared across requests and processes: a short-lived cache in Redis, plus
 * in-flight sharing (one process fetches under a lock, the others wait for its answer), so a storm
 * of identical digests makes one GraphQL request. Bounded: at most `maxEntries` replies per workspace,
 * compressed, none over `maxEntryBytes`. A miss costs two round trips (look-or-lock, store-and-unlock).
 * Secrets never go into keys or cached values.
 */
export function createInsightsCache(options: InsightsCacheOptions): InsightsCache {
  const { redis, keys, client, logger } = options;
  const ttlMs = options.ttlMs ?? 60_000;
  const errorTtlMs = options.errorTtlMs ?? 5_000;
  const lockMs = options.lockMs ?? 30_000;
  const pollMs = options.pollMs ?? 25;
  const maxEntries = options.maxEntries ?? 50;
  const maxEntryBytes = options.maxEntryBytes ?? 256 * 1024;
  const local = new Map<string, Promise<InsightsResult>>();
  // A storm's deliveries of one workspace ask for the same replies over and over (the drivers' slices
  // above all); reading each from Redis again means a round trip, inflating and parsing the same JSON.
  // Keyed with the API key's hash as well, so a reply fetched with another key is never reused here.
  // Several digests then hold one reply object: digest code only reads replies, never changes them.
  const memoMs = options.memoMs ?? 10_000;
  const memo = createTtlMemo<InsightsResult>(options.memoEntries ?? 200);
  // A keyed hash of the API key, never the key, in the memo's keys (and no map keyed by the key).
  const keyTag = secretTag;
  const sharedLists = createSharedLists();
  const listsMs = options.listsMs ?? 5 * 60_000;
  const remember = (key: string, result: InsightsResult) => {
    if (memoMs <= 0) return;
    memo.set(key, result, Date.now() + memoMs);
  };

  const unpack = (raw: string): InsightsResult => {
    const entry = JSON.parse(unpackText(raw)) as CachedEntry;
    if (entry.ok && entry.result) return entry.result;
    const e = entry.error ?? { code: "unavailable", message: "The analytics service did not answer." };
    throw new AppError(e.code, e.message, { details: { ...(e.details ?? {}), shared: true } });
  };

  async function fetchShared(
    ref: WorkspaceRef,
    apiKey: string,
    query: InsightsQuery,
    cacheKey: string,
    lockKey: string,
    /** Asked without lists: the key of the same reply asked with them, which answers as well. */
    wholeKey?: string,
  ) {
    const withLists = wholeKey === undefined;
    const deadline = Date.now() + lockMs + 1_000;
    const store = (value: string, ttl: number, token: string) =>
      runScript(
        redis,
        STORE_AND_UNLOCK,
        [cacheKey, lockKey, keys.insightsCacheIndex(ref)],
        [
          value.length > maxEntryBytes ? "" : value,
          ttl,
          token,
          Date.now(),
          maxEntries,
          `${keys.namespace(ref)}:insights:`,
        ],
      );
    for (;;) {
      const token = lockToken();
      const [state, cached] = (await runScript(
        redis,
        GET_OR_LOCK,
        wholeKey ? [cacheKey, lockKey, wholeKey] : [cacheKey, lockKey],
        [token, lockMs],
      )) as [number, string];
      if (state === 1) return unpack(cached);
      if (state === 2) {
        let result: InsightsResult;
        try {
          result = await client.insights(apiKey, query, withLists ? undefined : { lists: false });
        } catch (err) {
          const entry: CachedEntry | null =
            err instanceof AppError
              ? { ok: false, error: { code: err.code, message: err.message, details: { ...err.details } } }
              : null;
          await store(entry ? pack(entry) : "", errorTtlMs, token).catch((e: unknown) =>
            logger.warn({ err: e }, "insights cache write failed"),
          );
          throw err;
        }
        // Not awaited: the reply is ready, the write (and the lock's release) go out while the digest is
        // built; a peer waiting on the lock sees the entry a moment later.
        void store(pack({ ok: true, result }), ttlMs, token).catch((e: unknown) =>
          logger.warn({ err: e }, "insights cache write failed"),
        );
        return result;
      }
      if (Date.now() > deadline) {
        throw new AppError("unavailable", "The analytics service did not answer in time.", {
          details: { waitedForPeer: true },
        });
      }
      await sleep(pollMs);
    }
  }

  return {
    fetch(ref, apiKey, query) {
      const account = keyTag(apiKey);
      const question = canonical(query);
      // The form's name is part of the key: a process that reads another form never meets these entries.
      const plain = digestToken(question, PACKED_FORM);
      const heldOrAsked = (digest: string) => {
        const memoKey = `${keys.insightsCache(ref, digest)}|${account}`;
        return { memoKey, found: memo.get(memoKey) ?? local.get(memoKey) };
      };
      // A reply that brought its lists, held or on its way, answers first (a warm-up may have asked it).
      const whole = heldOrAsked(plain);
      if (whole.found) return Promise.resolve(whole.found);
      // The account's lists, when a recent reply brought them: this one is asked (and cached) without.
      const lists = listsMs > 0 ? sharedLists.fresh(account, listsMs) : undefined;
      const digest = lists ? digestToken(question, "without-lists", PACKED_FORM) : plain;
      const { memoKey, found } = lists ? heldOrAsked(digest) : whole;
      if (found) return Promise.resolve(found);
      // Another process (or thread) may hold no lists and have cached the reply with them: it answers too.
      const wholeKey = lists ? keys.insightsCache(ref, plain) : undefined;
      const cacheKey = keys.insightsCache(ref, digest);
      const p = fetchShared(ref, apiKey, query, cacheKey, keys.lock(ref, `insights-${digest}`), wholeKey)
        .then((fetched) => {
          // The account's lists as the same objects in every reply, so what the templates work out
          // from them is worked out once (shared-lists.ts).
          const result = lists ? { ...fetched, filters: lists } : sharedLists(account, fetched);
          remember(memoKey, result);
          return result;
        })
        .finally(() => local.delete(memoKey));
      local.set(memoKey, p);
      return p;
    },
    lists: (apiKey) => sharedLists.latest(keyTag(apiKey)),
    async invalidate(ref) {
      const prefix = `${keys.namespace(ref)}:insights`;
      for (const key of [...memo.keys()]) if (key.startsWith(prefix)) memo.delete(key);
      let removed = 0;
      // Every key of one workspace shares its hash tag: a multi-key UNLINK is fine on a cluster too.
      for await (const batch of scanKeys(redis, `${keys.namespace(ref)}:insights*`)) {
        if (batch.length > 0) removed += await redis.unlink(...batch);
      }
      return removed;
    },
  };
}
