import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createFilterListsCache } from "../../src/digests/filter-lists.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";

/**
 * The type-ahead's lists, as one process reads them from Redis: the same objects while the stored
 * text is the same (so what the menus work out per list is kept between keystrokes), and the stored
 * text always wins.
 */

const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

const lists = (name: string) => ({
  assets: [
    { value: "a1", displayValue: `payments / ${name}` },
    { value: "a2", displayValue: "platform / auth" },
  ],
  scanners: [{ value: "sast", displayValue: "SAST" }],
});

function cache(readMax?: number) {
  const keys = createKeyScheme({ prefix: `filter-lists-${randomUUID()}` });
  return Object.assign(createFilterListsCache({ redis, keys, ...(readMax ? { readMax } : {}) }), {
    /** Where the lists of `ref` are stored: the cache's own key. */
    keyOf: (ref: WorkspaceRef) => keys.insightsCache(ref, "filter-lists"),
  });
}

describe("filter lists read for type-ahead", () => {
  it("are the same objects on every read while Redis holds the same text", async () => {
    const c = cache();
    const ref: WorkspaceRef = { teamId: "T0LISTSAME" };
    await c.put(ref, lists("api"));
    const first = await c.get(ref);
    const second = await c.get(ref);
    expect(first?.assets?.[0]?.displayValue).toBe("payments / api");
    expect(second).toBe(first);
    expect(second?.assets).toBe(first?.assets);
  });

  it("follow what Redis holds: a list stored since, by this process or another, is read afresh", async () => {
    const c = cache();
    const ref: WorkspaceRef = { teamId: "T0LISTNEW" };
    await c.put(ref, lists("api"));
    const before = await c.get(ref);
    await c.put(ref, lists("gateway"));
    const after = await c.get(ref);
    expect(after).not.toBe(before);
    expect(after?.assets?.[0]?.displayValue).toBe("payments / gateway");
    // Another process's put: the same key's text written behind this one's back.
    await redis.set(c.keyOf(ref), JSON.stringify(lists("edge")));
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / edge");
  });

  it("keep at most `readMax` workspaces' lists in memory, and still answer every workspace from Redis", async () => {
    const c = cache(2);
    const refs: WorkspaceRef[] = ["T0LISTA", "T0LISTB", "T0LISTC"].map((teamId) => ({ teamId }));
    for (const [i, ref] of refs.entries()) await c.put(ref, lists(`n${i}`));
    const firstA = await c.get(refs[0] as WorkspaceRef);
    await c.get(refs[1] as WorkspaceRef);
    await c.get(refs[2] as WorkspaceRef);
    // A was the least recently read of three with room for two: read again, it is parsed afresh.
    const againA = await c.get(refs[0] as WorkspaceRef);
    expect(againA).not.toBe(firstA);
    expect(againA).toEqual(firstA);
    for (const [i, ref] of refs.entries())
      expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe(`payments / n${i}`);
  });
});
