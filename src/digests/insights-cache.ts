import type { Redis } from "ioredis";
import type { InsightsQuery, InsightsResult } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { digestToken, type KeyScheme, type WorkspaceRef } from "../store/keys.ts";
import { scanKeys } from "../store/scan.ts";

/** What the source needs from the analytics client. */
export interface InsightsFetcher {
  insights(apiKey: string, q: InsightsQuery): Promise<InsightsResult>;
}

export interface InsightsCacheOptions {
  redis: Redis;
  keys: KeyScheme;
  client: InsightsFetcher;
  logger: Logger;
  /** How long a reply is reused (default 60 s): digests of one workspace within a minute share one request. */
  ttlMs?: number;
  /** How long a failure is remembered, so a down service is not hammered by every waiter (default 5 s). */
  errorTtlMs?: number;
  /** Upper bound on one fetch while others wait on it (default 30 s; longer than the client's retries). */
  lockMs?: number;
  pollMs?: number;
}

export interface InsightsCache {
  fetch(ref: WorkspaceRef, apiKey: string, query: InsightsQuery): Promise<InsightsResult>;
  /** Drops the workspace's cached replies (after the key changes). */
  invalidate(ref: WorkspaceRef): Promise<number>;
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

/**
 * Insights replies shared across requests and processes: a short-lived cache in Redis, plus
 * in-flight sharing (one process fetches under a lock, the others wait for its answer), so a storm
 * of identical digests makes one GraphQL request. Secrets never go into keys or cached values.
 */
export function createInsightsCache(options: InsightsCacheOptions): InsightsCache {
  const { redis, keys, client, logger } = options;
  const ttlMs = options.ttlMs ?? 60_000;
  const errorTtlMs = options.errorTtlMs ?? 5_000;
  const lockMs = options.lockMs ?? 30_000;
  const pollMs = options.pollMs ?? 25;
  const local = new Map<string, Promise<InsightsResult>>();

  const unpack = (raw: string): InsightsResult => {
    const entry = JSON.parse(raw) as CachedEntry;
    if (entry.ok && entry.result) return entry.result;
    const e = entry.error ?? { code: "unavailable", message: "The analytics service did not answer." };
    throw new AppError(e.code, e.message, { details: { ...(e.details ?? {}), shared: true } });
  };

  async function fetchShared(apiKey: string, query: InsightsQuery, cacheKey: string, lockKey: string) {
    const deadline = Date.now() + lockMs + 1_000;
    for (;;) {
      const cached = await redis.get(cacheKey);
      if (cached) return unpack(cached);
      const token = `${process.pid}:${Math.random()}`;
      if (await redis.set(lockKey, token, "PX", lockMs, "NX")) {
        try {
          const result = await client.insights(apiKey, query);
          await redis.set(cacheKey, JSON.stringify({ ok: true, result } satisfies CachedEntry), "PX", ttlMs);
          return result;
        } catch (err) {
          if (err instanceof AppError) {
            const entry: CachedEntry = {
              ok: false,
              error: { code: err.code, message: err.message, details: { ...err.details } },
            };
            await redis.set(cacheKey, JSON.stringify(entry), "PX", errorTtlMs).catch(() => undefined);
          }
          throw err;
        } finally {
          // Release only our own lock: after a long stall another process may hold it now.
          await redis
            .eval(
              "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
              1,
              lockKey,
              token,
            )
            .catch((e: unknown) => logger.warn({ err: e }, "insights lock release failed"));
        }
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
      const digest = digestToken(canonical(query));
      const cacheKey = keys.insightsCache(ref, digest);
      const inFlight = local.get(cacheKey);
      if (inFlight) return inFlight;
      const p = fetchShared(apiKey, query, cacheKey, keys.lock(ref, `insights-${digest}`)).finally(() =>
        local.delete(cacheKey),
      );
      local.set(cacheKey, p);
      return p;
    },
    async invalidate(ref) {
      let removed = 0;
      for await (const batch of scanKeys(redis, `${keys.namespace(ref)}:insights:*`)) {
        if (batch.length > 0) removed += await redis.del(...batch);
      }
      return removed;
    },
  };
}
