import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY, type Emulator, SECOND_API_KEY, startEmulator } from "../../sandbox/analytics/index.ts";
import { createAnalyticsClient } from "../../src/analytics/client.ts";
import { parseKeyring } from "../../src/config.ts";
import { createDigestService } from "../../src/digests/digest-service.ts";
import { createDriversCache, type DriversCache } from "../../src/digests/drivers-cache.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanTargets } from "../../src/store/redis-client.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * Computed drivers are shared: by every workspace that holds the same API key (never across keys),
 * in one process and across processes (each "process" here has its own connections, caches and
 * digest service), with concurrent askers waiting for the one computation rather than repeating it.
 */

const TODAY = "2026-11-20";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const team = (i: number): WorkspaceRef => ({ teamId: `T0SHARE${String(i).padStart(3, "0")}` });
const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);
const secret = randomBytes(32);

let emu: Emulator;
beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY });
});
afterAll(() => emu.close());

/** Counts Redis calls a cache makes: the commands it sends on its own connection. */
function counted(redis: RedisClient) {
  const calls = { n: 0 };
  const proxy = new Proxy(redis, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function" || !["evalsha", "eval", "get", "set", "publish"].includes(String(prop)))
        return typeof v === "function" ? v.bind(target) : v;
      return (...args: unknown[]) => {
        calls.n++;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { redis: proxy as RedisClient, calls };
}

/** A promise that stays pending until the test opens it (a computation held in flight). */
function gate() {
  let open: () => void = () => undefined;
  const closed = new Promise<void>((r) => {
    open = r;
  });
  return { closed, open };
}

describe.each(backends())("shared drivers ($name)", ({ url }) => {
  const prefix = `t-shared-${randomBytes(4).toString("hex")}`;
  const caches: DriversCache[] = [];
  const conns = [
    useRedis(url, async () => Promise.all(caches.map((c) => c.close()))),
    useRedis(url),
    useRedis(url),
  ];

  /** One "process": its own connection, insights cache, drivers cache and digest service. */
  async function process(i: number) {
    const redis = conns[i] as RedisClient;
    // The drivers cache's own commands, counted apart from the digest's other Redis work.
    const { redis: driversRedis, calls } = counted(redis);
    const keys = createKeyScheme({ prefix });
    const apiKeys = createApiKeyStore({ redis, keyring, prefix });
    const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
    await client.introspect(DEMO_API_KEY);
    const slices = { requests: 0 };
    const source: SlicesSource = {
      slices: (key, qs) => {
        slices.requests++;
        return client.slices(key, qs);
      },
    };
    const driversCache = createDriversCache({ redis: driversRedis, keys, secret, logger: silentLogger() });
    caches.push(driversCache);
    const insights = createInsightsCache({ redis, keys, client, logger: silentLogger() });
    const digests = createDigestService({ apiKeys, insights, slices: source, driversCache });
    const build = (ref: WorkspaceRef, range = "last30d") =>
      digests.build({ ref, range, tz: "UTC", now: NOW, drivers: "required" });
    return { apiKeys, build, slices, calls };
  }

  it("between workspaces with one key, across processes; never between keys", async () => {
    const [p1, p2] = [await process(0), await process(1)];
    for (const i of [1, 2, 3])
      await p1.apiKeys.save(team(i), DEMO_API_KEY, { savedBy: "U0T", savedAt: TODAY });
    await p1.apiKeys.save(team(4), SECOND_API_KEY, { savedBy: "U0T", savedAt: TODAY });
    const first = await p1.build(team(1));
    expect(p1.slices.requests).toBe(1);
    // Another workspace with the same key, in this process and in another: no slice is asked again.
    const sameHere = await p1.build(team(2));
    const sameThere = await p2.build(team(3));
    expect(p1.slices.requests + p2.slices.requests).toBe(1);
    expect(sameHere.view.drivers).toEqual(first.view.drivers);
    expect(sameThere.view.drivers).toEqual(first.view.drivers);
    expect(sameThere.view.previousSeries).toEqual(first.view.previousSeries);
    // Another key asking the very same question computes its own, and gets its own account's numbers.
    const other = await p2.build(team(4));
    expect(p2.slices.requests).toBe(1);
    expect(other.view.drivers?.drivers.total).toEqual({
      violations: {
        current: other.view.digest.violations.current,
        previous: other.view.digest.violations.previous,
      },
      findings: {
        current: other.view.digest.findings.current,
        previous: other.view.digest.findings.previous,
      },
      fixes: expect.objectContaining({ current: other.view.digest.fixes }),
    });
    expect(other.view.drivers?.drivers.total).not.toEqual(first.view.drivers?.drivers.total);
    // Neither key is in any key Redis holds, nor in any value: accounts are named by a keyed hash.
    const redis = conns[2] as RedisClient;
    const found: string[] = [];
    for (const node of await scanTargets(redis)) {
      let cursor = "0";
      do {
        const [next, batch] = await node.scan(cursor, "MATCH", `${prefix}:drivers:*`, "COUNT", 500);
        cursor = next;
        found.push(...batch);
      } while (cursor !== "0");
    }
    const accounts = new Set(found.map((k) => /\{a:([^}]+)\}/.exec(k)?.[1]));
    expect(accounts.size).toBe(2);
    for (const k of found) {
      expect(k).not.toContain(DEMO_API_KEY);
      expect(k).not.toContain(SECOND_API_KEY);
      const value = (await redis.type(k)) === "string" ? ((await redis.get(k)) ?? "") : "";
      expect(value).not.toContain(DEMO_API_KEY);
    }
  });

  /** Two "processes" of drivers caches alone, on their own connections (closed with the others). */
  function twoCaches(o: { idleCloseMs?: number } = {}) {
    const keys = createKeyScheme({ prefix });
    const made = [conns[0], conns[1]].map((redis) =>
      createDriversCache({ redis: redis as RedisClient, keys, secret, logger: silentLogger(), ...o }),
    );
    caches.push(...made);
    return made as [DriversCache, DriversCache];
  }

  it("the connection a process opened to wait for another's result closes with the cache, not when idle", async () => {
    // Sockets this test process holds open (what keeps a stopping process alive).
    const sockets = () =>
      globalThis.process.getActiveResourcesInfo().filter((r) => r === "TCPSocketWrap").length;
    // Idle for a minute before it would close by itself: only close() can close it within this test.
    const [a, b] = twoCaches({ idleCloseMs: 60_000 });
    const held = gate();
    const first = a.get(DEMO_API_KEY, "notice-close", async () => {
      await held.closed;
      return { by: "a" };
    });
    // a holds the computation's lock; b's connection has reached the key's node.
    await (conns[1] as RedisClient).get(`${prefix}:warm-up`);
    await new Promise((r) => setTimeout(r, 100));
    const base = sockets();
    const second = b.get(DEMO_API_KEY, "notice-close", async () => ({ by: "b" }));
    const until = async (ok: () => boolean, what: string) => {
      const end = Date.now() + 3_000;
      while (!ok()) {
        if (Date.now() > end) throw new Error(`timed out: ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    // b waits for a's notice on a connection of its own.
    await until(() => sockets() > base, "b's notice connection");
    held.open();
    expect(await first).toEqual({ by: "a" });
    expect(await second).toEqual({ by: "a" });
    // Still open after the wait (its idle close is a minute away)...
    expect(sockets()).toBeGreaterThan(base);
    // ...and closed by close().
    await b.close();
    await until(() => sockets() <= base, "b's notice connection closed");
  });

  it("a warm-up computes what nobody holds, and neither reads back nor waits for what another process has", async () => {
    const [a, b] = twoCaches();
    let computed = 0;
    const compute = (v: string) => async () => {
      computed++;
      return { v };
    };
    // Shared by a: b's warm-up asks Redis whether it is there, and neither computes nor reads it.
    expect(await a.get(DEMO_API_KEY, "warm-shared", compute("a"))).toEqual({ v: "a" });
    await b.warm(DEMO_API_KEY, "warm-shared", compute("b"));
    expect(computed).toBe(1);
    expect(b.peek(DEMO_API_KEY, "warm-shared")).toBeUndefined();
    // Its delivery reads it then, once.
    expect(await b.get(DEMO_API_KEY, "warm-shared", compute("b"))).toEqual({ v: "a" });
    expect(computed).toBe(1);
    // Being computed by a: b's warm-up does not wait for it.
    const held = gate();
    const slow = a.get(DEMO_API_KEY, "warm-busy", async () => {
      await held.closed;
      return { v: "a" };
    });
    await new Promise((r) => setTimeout(r, 50));
    await b.warm(DEMO_API_KEY, "warm-busy", compute("b"));
    expect(b.peek(DEMO_API_KEY, "warm-busy")).toBeUndefined();
    held.open();
    await slow;
    // Held by nobody: b computes it, stores it for every process, and holds it for its reader.
    await b.warm(DEMO_API_KEY, "warm-new", compute("b"));
    expect(computed).toBe(2);
    expect(b.peek(DEMO_API_KEY, "warm-new")).toEqual({ v: "b" });
    expect(await a.get(DEMO_API_KEY, "warm-new", compute("a"))).toEqual({ v: "b" });
    expect(computed).toBe(2);
  });

  it("50 concurrent deliveries of one account, in two processes, compute the drivers once", async () => {
    const [p1, p2] = [await process(0), await process(1)];
    const refs = Array.from({ length: 50 }, (_, i) => team(100 + i));
    for (const ref of refs) await p1.apiKeys.save(ref, DEMO_API_KEY, { savedBy: "U0T", savedAt: TODAY });
    // Slow answers, so the computation is still running when every delivery has asked.
    emu.setRates({ latencyMs: 400 });
    const redisBefore = p2.calls.n;
    const p1Before = p1.calls.n;
    try {
      const views = await Promise.all(refs.map((ref, i) => (i % 2 === 0 ? p1 : p2).build(ref, "last14d")));
      expect(p1.slices.requests + p2.slices.requests).toBe(1);
      const drivers = views.map((v) => JSON.stringify(v.view.drivers));
      expect(new Set(drivers).size).toBe(1);
      // Each process asked Redis once for its 25 deliveries; the one that did not compute waited for
      // the notice (a look, and a second look once subscribed), never asking again and again.
      expect(p2.calls.n - redisBefore).toBeLessThanOrEqual(3);
      expect(p1.calls.n - p1Before).toBeLessThanOrEqual(3);
    } finally {
      emu.setRates({});
    }
  });
});
