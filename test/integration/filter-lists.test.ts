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

/** The cache over the real Redis, with the commands it sends counted by name. */
function cache(readMaxBytes?: number, ttlMs?: number) {
  const keys = createKeyScheme({ prefix: `filter-lists-${randomUUID()}` });
  const sent: string[] = [];
  const counted = new Proxy(redis, {
    get(target, name, receiver) {
      const v = Reflect.get(target, name, receiver);
      if (typeof v !== "function" || typeof name !== "string") return v;
      return (...args: unknown[]) => {
        sent.push(name);
        return v.apply(target, args);
      };
    },
  });
  return Object.assign(
    createFilterListsCache({
      redis: counted,
      keys,
      ...(readMaxBytes ? { readMaxBytes } : {}),
      ...(ttlMs ? { ttlMs } : {}),
    }),
    {
      /** Where the lists of `ref` are stored: the cache's own key. */
      keyOf: (ref: WorkspaceRef) => keys.insightsCache(ref, "filter-lists"),
      sent,
    },
  );
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

  it("while held, cost a read of the stored text's 41-byte head, not of the whole text", async () => {
    const c = cache();
    const ref: WorkspaceRef = { teamId: "T0LISTHEAD" };
    await c.put(ref, lists("api"));
    const stored = (await redis.get(c.keyOf(ref))) as string;
    expect(stored).toMatch(/^\{"_":"v3:[0-9a-f]{16}:\d{13}","assets":/);
    // Plain JSON, as a reader that parses the whole text (releases up to 0.0.3) reads it.
    expect(JSON.parse(stored)).toMatchObject(lists("api"));
    const first = await c.get(ref);
    c.sent.length = 0;
    expect(await c.get(ref)).toBe(first);
    expect(c.sent).toEqual(["getrange"]);
    // Text stored before the head (plain JSON) is still read, in full each time.
    await redis.set(c.keyOf(ref), JSON.stringify(lists("old")));
    c.sent.length = 0;
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / old");
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / old");
    expect(c.sent).toEqual(["getrange", "get", "getrange", "get"]);
    // Stored by a process of an earlier release (a stamp and a time before the JSON; a stamp alone):
    // read, the latter as fresh.
    const v2 = JSON.stringify(lists("v2"));
    await redis.set(c.keyOf(ref), `v2:${"1".repeat(16)}:${Date.now()}\n${v2}`);
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / v2");
    c.sent.length = 0;
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / v2");
    expect(c.sent).toEqual(["getrange"]);
    const text = JSON.stringify(lists("v1"));
    await redis.set(c.keyOf(ref), `v1:${"0".repeat(16)}\n${text}`);
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / v1");
    // Gone from Redis (expired, or dropped with a new key): gone from the reader too.
    await redis.del(c.keyOf(ref));
    expect(await c.get(ref)).toBeNull();
    expect(await c.held(ref)).toBeNull();
  });

  it("older than type-ahead's time, are no answer to type-ahead but are still held as a guess, for a month", async () => {
    const c = cache(undefined, 50);
    const ref: WorkspaceRef = { teamId: "T0LISTOLD" };
    await c.put(ref, lists("api"));
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / api");
    const ttl = await redis.pttl(c.keyOf(ref));
    expect(ttl).toBeGreaterThan(31 * 86_400_000);
    await new Promise((r) => setTimeout(r, 80));
    expect(await c.get(ref)).toBeNull();
    expect((await c.held(ref))?.assets?.[0]?.displayValue).toBe("payments / api");
    // Stored again (a digest built since): type-ahead's answer once more.
    await c.put(ref, lists("gateway"));
    expect((await c.get(ref))?.assets?.[0]?.displayValue).toBe("payments / gateway");
  });

  it("read at once by many (a slot's first deliveries), are read from Redis once", async () => {
    const c = cache();
    const ref: WorkspaceRef = { teamId: "T0LISTMANY" };
    await c.put(ref, lists("api"));
    c.sent.length = 0;
    const all = await Promise.all(Array.from({ length: 20 }, () => c.held(ref)));
    expect(c.sent).toEqual(["get"]);
    expect(new Set(all).size).toBe(1);
  });

  it("keep at most `readMaxBytes` of lists in memory, and still answer every workspace from Redis", async () => {
    const refs: WorkspaceRef[] = ["T0LISTA", "T0LISTB", "T0LISTC"].map((teamId) => ({ teamId }));
    const probe = cache();
    await probe.put({ teamId: "T0PROBE" }, lists("n0"));
    const bytes = await redis.strlen(probe.keyOf({ teamId: "T0PROBE" }));
    // Room for two of the three (each stores the same number of bytes).
    const c = cache(2 * bytes);
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
