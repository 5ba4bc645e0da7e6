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
