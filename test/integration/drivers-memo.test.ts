import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createDriversCache, type DriversCache } from "../../src/digests/drivers-cache.ts";
import { silentLogger } from "../../src/log.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * A slot's warm-up computes drivers ahead of its deliveries. The results stay in the process that
 * computed them, bounded by their size, so a storm's deliveries do not read them back from Redis.
 */

/** Counts the commands the cache sends on its connection (scripts and plain reads). */
function counted(redis: RedisClient) {
  const calls = { n: 0 };
  const proxy = new Proxy(redis, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function") return v;
      if (!["evalsha", "eval", "get", "set", "publish"].includes(String(prop))) return v.bind(target);
      return (...args: unknown[]) => {
        calls.n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { redis: proxy as RedisClient, calls };
}

/** A result the size of a digest's drivers (about 6,000 characters of JSON), distinct per `i`. */
const result = (i: number) => ({
  i,
  rows: Array.from({ length: 120 }, (_, r) => ({ label: `group-${r}/*`, current: i + r, previous: r })),
});

describe.each(backends())("drivers results held in the process ($name)", ({ url }) => {
  const caches: DriversCache[] = [];
  const conn = useRedis(url, async () => Promise.all(caches.map((c) => c.close())));

  function cache(memoChars?: number) {
    const { redis, calls } = counted(conn);
    const c = createDriversCache({
      redis,
      keys: createKeyScheme({ prefix: `t-memo-${randomBytes(4).toString("hex")}` }),
      secret: randomBytes(32),
      logger: silentLogger(),
      memoChars,
    });
    caches.push(c);
    return { c, calls };
  }

  it("a slot's 1,000 results computed ahead (6 MB of JSON) are read back without Redis", async () => {
    const { c, calls } = cache();
    const computed = { n: 0 };
    const compute = (i: number) => async () => {
      computed.n++;
      return result(i);
    };
    for (let i = 0; i < 1_000; i++) await c.get("key-a", `request-${i}`, compute(i));
    expect(computed.n).toBe(1_000);
    expect(JSON.stringify(result(0)).length).toBeGreaterThan(4_000);
    const before = calls.n;
    for (let i = 0; i < 1_000; i++)
      expect(await c.get("key-a", `request-${i}`, compute(i))).toEqual(result(i));
    expect(calls.n - before).toBe(0);
    expect(computed.n).toBe(1_000);
  });

  it("past its bound the oldest go (read back from Redis, the same values); one larger than the bound is never held", async () => {
    // Room for ten of the largest of these results, not eleven.
    const one = JSON.stringify({ ok: true, value: result(29) }).length;
    const { c, calls } = cache(one * 10 + 100);
    const computed = { n: 0 };
    const compute = (i: number) => async () => {
      computed.n++;
      return result(i);
    };
    for (let i = 0; i < 30; i++) await c.get("key-a", `request-${i}`, compute(i));
    // The last ten are held: no command for them.
    let before = calls.n;
    for (let i = 20; i < 30; i++) expect(await c.get("key-a", `request-${i}`, compute(i))).toEqual(result(i));
    expect(calls.n - before).toBe(0);
    // The first ones went: each read back from Redis, not computed again.
    before = calls.n;
    for (let i = 0; i < 5; i++) expect(await c.get("key-a", `request-${i}`, compute(i))).toEqual(result(i));
    expect(calls.n - before).toBeGreaterThanOrEqual(5);
    expect(computed.n).toBe(30);

    const tiny = cache(100);
    await tiny.c.get("key-a", "big", async () => result(1));
    before = tiny.calls.n;
    expect(await tiny.c.get("key-a", "big", async () => result(2))).toEqual(result(1));
    expect(tiny.calls.n - before).toBeGreaterThan(0);
  });

  it("results computed ahead and not read yet outlast results already read; a reader joining one ahead reads it", async () => {
    const one = JSON.stringify({ ok: true, value: result(29) }).length;
    const { c, calls } = cache(one * 10 + 100);
    const compute = (i: number) => async () => result(i);
    // Five computed ahead (a warm-up), then thirty read by their own digests: the five stay held.
    for (let i = 0; i < 5; i++) await c.warm("key-a", `ahead-${i}`, compute(i));
    for (let i = 0; i < 30; i++) await c.get("key-a", `request-${i}`, compute(i));
    let before = calls.n;
    for (let i = 0; i < 5; i++) expect(await c.get("key-a", `ahead-${i}`, compute(-1))).toEqual(result(i));
    expect(calls.n - before).toBe(0);
    // Read once, they are ordinary: the next results push them out (read back from Redis, not computed).
    for (let i = 30; i < 45; i++) await c.get("key-a", `request-${i}`, compute(i));
    before = calls.n;
    for (let i = 0; i < 5; i++) expect(await c.get("key-a", `ahead-${i}`, compute(-1))).toEqual(result(i));
    expect(calls.n - before).toBeGreaterThanOrEqual(5);

    // A digest that joins a computation started ahead is its reader: that result is not spared.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const warming = c.warm("key-a", "joined", async () => {
      await gate;
      return result(7);
    });
    // Once the warm-up holds the computation (its lock taken, its value on the way), the digest joins it.
    await new Promise((r) => setTimeout(r, 50));
    const reading = c.get("key-a", "joined", compute(-1));
    release();
    expect(await reading).toEqual(result(7));
    await warming;
    for (let i = 45; i < 60; i++) await c.get("key-a", `request-${i}`, compute(i));
    before = calls.n;
    expect(await c.get("key-a", "joined", compute(-1))).toEqual(result(7));
    expect(calls.n - before).toBeGreaterThan(0);
  });
});
