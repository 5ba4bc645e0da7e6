import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { InsightsQuery, InsightsResult } from "../../src/analytics/types.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { silentLogger } from "../../src/log.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * The shared cache's bounds: a reply larger than `maxEntryBytes` (compressed) is answered but never
 * stored, and its fetch lock is let go at once, so the next asker fetches rather than waiting for an
 * entry that will not come; at most `maxEntries` replies are kept per workspace.
 */
const query = (day: number): InsightsQuery => ({ fromDay: "2026-11-01", toDay: `2026-11-0${day}` });
// Random text does not compress: its size is what the cache sees.
const big = () =>
  ({ summary: { fixes: 1 }, note: randomBytes(3_000).toString("base64") }) as unknown as InsightsResult;
const small = (n: number) => ({ summary: { fixes: n } }) as unknown as InsightsResult;

describe.each(backends())("insights cache bounds ($name)", ({ url }) => {
  const redis = useRedis(url);
  const keys = createKeyScheme({ prefix: `bounds-${process.pid}` });

  /** One process's cache (no in-process memo), over a service that answers `reply`. */
  function processCache(reply: (n: number) => InsightsResult, o: { maxEntries?: number } = {}) {
    let fetched = 0;
    const cache = createInsightsCache({
      redis,
      keys,
      logger: silentLogger(),
      memoMs: 0,
      lockMs: 10_000,
      maxEntryBytes: 1_024,
      ...o,
      client: { insights: async () => reply(++fetched) },
    });
    return { cache, fetched: () => fetched };
  }
  const entries = async (ref: WorkspaceRef) => {
    const found: string[] = [];
    for await (const page of scanKeys(redis, `${keys.namespace(ref)}:insights:*`)) found.push(...page);
    return found;
  };
  const settle = () => new Promise((r) => setTimeout(r, 100));

  it("a reply over maxEntryBytes is answered, not stored, and does not hold the next asker up", async () => {
    const ref: WorkspaceRef = { teamId: "T0BIGREPLY" };
    const reply = big();
    const a = processCache(() => reply);
    expect(await a.cache.fetch(ref, "key", query(7))).toEqual(reply);
    await settle();
    expect(await entries(ref)).toEqual([]);
    const locks: string[] = [];
    for await (const page of scanKeys(redis, `${keys.namespace(ref)}:lock:*`)) locks.push(...page);
    expect(locks).toEqual([]);
    const b = processCache(() => reply);
    const t0 = Date.now();
    expect(await b.cache.fetch(ref, "key", query(7))).toEqual(reply);
    // Fetched itself at once: no wait on a lock (10 s) for an entry that would never come.
    expect(b.fetched()).toBe(1);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("a small reply is stored and read by another process without a fetch", async () => {
    const ref: WorkspaceRef = { teamId: "T0SMALLREP" };
    const a = processCache(small);
    expect(await a.cache.fetch(ref, "key", query(7))).toEqual(small(1));
    await settle();
    expect(await entries(ref)).toHaveLength(1);
    const b = processCache(() => small(99));
    expect(await b.cache.fetch(ref, "key", query(7))).toEqual(small(1));
    expect(b.fetched()).toBe(0);
  });

  it("keeps at most maxEntries replies per workspace, the oldest going first", async () => {
    const ref: WorkspaceRef = { teamId: "T0MANYREPL" };
    const a = processCache(small, { maxEntries: 2 });
    for (const day of [3, 4, 5]) {
      await a.cache.fetch(ref, "key", query(day));
      await settle();
    }
    expect(await entries(ref)).toHaveLength(2);
    const b = processCache(() => small(99), { maxEntries: 2 });
    // The newest two answer from the cache; the oldest is fetched again.
    expect(await b.cache.fetch(ref, "key", query(5))).toEqual(small(3));
    expect(await b.cache.fetch(ref, "key", query(4))).toEqual(small(2));
    expect(await b.cache.fetch(ref, "key", query(3))).toEqual(small(99));
  });
});
