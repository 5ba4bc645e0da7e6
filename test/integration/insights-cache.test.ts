import { describe, expect, inject, it } from "vitest";
import type { InsightsQuery, InsightsResult } from "../../src/analytics/types.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { silentLogger } from "../../src/log.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { useRedis } from "../setup/backends.ts";

/**
 * The cache's in-process memo: a reply this process already holds is reused without Redis for
 * `memoMs`, never for another API key, and never after `invalidate`. Each check first deletes the
 * shared Redis entries, so only the memo can answer without a new fetch.
 */
const redis = useRedis(inject("redisUrl"));
const keys = createKeyScheme({ prefix: `memo-${process.pid}` });
const query: InsightsQuery = { fromDay: "2026-11-01", toDay: "2026-11-07" };
const reply = (n: number) => ({ summary: { fixes: n } }) as unknown as InsightsResult;

function cacheWith(memoMs: number) {
  const fetched: string[] = [];
  const cache = createInsightsCache({
    redis,
    keys,
    logger: silentLogger(),
    memoMs,
    client: {
      insights: async (apiKey) => {
        fetched.push(apiKey);
        return reply(fetched.length);
      },
    },
  });
  return { cache, fetched };
}

async function sharedEntries(r: WorkspaceRef): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of scanKeys(redis, `${keys.namespace(r)}:insights*`)) found.push(...batch);
  return found;
}

/** Drops the workspace's shared entries, once the fetch's store (not awaited by fetch) has written them. */
async function dropShared(r: WorkspaceRef) {
  let found = await sharedEntries(r);
  for (let i = 0; i < 40 && found.length === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    found = await sharedEntries(r);
  }
  expect(found.length).toBeGreaterThan(0);
  await redis.unlink(...found);
}

describe("the insights cache's in-process memo", () => {
  it("answers again from memory, not for another key, and not after invalidate", async () => {
    const ref: WorkspaceRef = { teamId: "T0MEMO001" };
    const { cache, fetched } = cacheWith(10_000);
    expect(await cache.fetch(ref, "key-a", query)).toEqual(reply(1));
    await dropShared(ref);
    expect(await cache.fetch(ref, "key-a", query)).toEqual(reply(1));
    expect(fetched).toEqual(["key-a"]);

    expect(await cache.fetch(ref, "key-b", query)).toEqual(reply(2));
    expect(fetched).toEqual(["key-a", "key-b"]);

    await cache.invalidate(ref);
    expect(await cache.fetch(ref, "key-a", query)).toEqual(reply(3));
    expect(fetched).toEqual(["key-a", "key-b", "key-a"]);
  });

  it("with memoMs 0 every fetch past the shared entry asks the service again", async () => {
    const ref: WorkspaceRef = { teamId: "T0MEMO002" };
    const { cache, fetched } = cacheWith(0);
    await cache.fetch(ref, "key-a", query);
    await dropShared(ref);
    await cache.fetch(ref, "key-a", query);
    expect(fetched).toEqual(["key-a", "key-a"]);
  });
});

describe("an account's lists, brought by one reply, stand in for its next replies'", () => {
  const lists = {
    assetId: [{ value: "a1", displayValue: "checkout/api" }],
    scannerId: [{ value: "sast", displayValue: "SAST" }],
  };
  function listsCache(o: { listsMs?: number; offersLists?: boolean } = {}) {
    const asked: { apiKey: string; from: string; lists: boolean }[] = [];
    const cache = createInsightsCache({
      redis,
      keys,
      logger: silentLogger(),
      listsMs: o.listsMs,
      client: {
        insights: async (apiKey, q, opts) => {
          const withLists = opts?.lists !== false;
          asked.push({ apiKey, from: q.fromDay, lists: withLists });
          const r = reply(asked.length);
          // A fresh copy each time, as a parsed reply is.
          return withLists && o.offersLists !== false ? { ...r, filters: structuredClone(lists) } : r;
        },
      },
    });
    return { cache, asked };
  }
  const range = (fromDay: string): InsightsQuery => ({ fromDay, toDay: "2026-11-20" });

  it("asks the next replies without lists and hands them the held ones; not past listsMs, nor for another key", async () => {
    const ref: WorkspaceRef = { teamId: "T0LISTS01" };
    const { cache, asked } = listsCache({ listsMs: 150 });
    const first = await cache.fetch(ref, "key-a", range("2026-11-01"));
    const second = await cache.fetch(ref, "key-a", range("2026-11-02"));
    expect(asked.map((a) => a.lists)).toEqual([true, false]);
    expect(second.filters).toEqual(lists);
    // The same list objects as the first reply's: what templates work out from them is shared.
    expect(second.filters?.assetId).toBe(first.filters?.assetId);
    expect(second.summary).toEqual(reply(2).summary);
    // Another API key is another account: its replies bring their own lists.
    await cache.fetch(ref, "key-b", range("2026-11-02"));
    expect(asked[2]).toEqual({ apiKey: "key-b", from: "2026-11-02", lists: true });
    // Past listsMs the lists are asked again, and held again from then on.
    await new Promise((r) => setTimeout(r, 200));
    await cache.fetch(ref, "key-a", range("2026-11-03"));
    await cache.fetch(ref, "key-a", range("2026-11-04"));
    expect(asked.slice(3).map((a) => a.lists)).toEqual([true, false]);
  });

  it("a reply already asked with its lists answers the same question again (no second request)", async () => {
    const ref: WorkspaceRef = { teamId: "T0LISTS02" };
    const { cache, asked } = listsCache();
    const both = await Promise.all([
      cache.fetch(ref, "key-a", range("2026-11-01")),
      cache.fetch(ref, "key-a", range("2026-11-01")),
    ]);
    expect(both[1]).toBe(both[0]);
    expect(await cache.fetch(ref, "key-a", range("2026-11-01"))).toBe(both[0]);
    expect(asked).toHaveLength(1);
  });

  it("with listsMs 0, or where the endpoint offers no lists, every reply is asked with them", async () => {
    const ref: WorkspaceRef = { teamId: "T0LISTS03" };
    const off = listsCache({ listsMs: 0 });
    await off.cache.fetch(ref, "key-a", range("2026-11-01"));
    await off.cache.fetch(ref, "key-a", range("2026-11-02"));
    expect(off.asked.map((a) => a.lists)).toEqual([true, true]);

    // Another workspace: shared entries are a workspace's, whatever the key.
    const other: WorkspaceRef = { teamId: "T0LISTS04" };
    const none = listsCache({ offersLists: false });
    const r1 = await none.cache.fetch(other, "key-c", range("2026-11-01"));
    const r2 = await none.cache.fetch(other, "key-c", range("2026-11-02"));
    expect(none.asked.map((a) => a.lists)).toEqual([true, true]);
    expect(r1.filters).toBeUndefined();
    expect(r2.filters).toBeUndefined();
  });

  it("a process holding the lists still finds the reply another process cached with them (no second request)", async () => {
    const ref: WorkspaceRef = { teamId: "T0LISTS05" };
    const a = listsCache();
    const b = listsCache();
    // B has the account's lists from a reply of its own.
    await b.cache.fetch(ref, "key-a", range("2026-11-01"));
    // A, which holds none, asks another question with them and caches the reply in Redis.
    const fromA = await a.cache.fetch(ref, "key-a", range("2026-11-02"));
    // Its write is not awaited by fetch: wait until both replies are in the workspace's index.
    for (let i = 0; i < 100 && (await redis.zcard(keys.insightsCacheIndex(ref))) < 2; i++)
      await new Promise((r) => setTimeout(r, 10));
    // B asks that question: the reply A cached answers it, handed B's lists.
    const fromB = await b.cache.fetch(ref, "key-a", range("2026-11-02"));
    expect(b.asked).toHaveLength(1);
    expect(fromB.summary).toEqual(fromA.summary);
    expect(fromB.filters).toEqual(lists);
  });
});
