import { randomBytes } from "node:crypto";
import { afterAll, afterEach, describe, expect, inject, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { capturingLogger } from "../../sandbox/stack.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { startWeb } from "../../src/app/web.ts";
import { startWorker } from "../../src/app/worker.ts";
import { loadConfig } from "../../src/config.ts";
import { silentLogger } from "../../src/log.ts";
import { checkEviction, readEvictionPolicy } from "../../src/store/eviction.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { cli, removeEmptyDirs } from "./cli-run.ts";
import { sleep, until } from "./worker-harness.ts";

/**
 * Redis' maxmemory-policy, read by web and worker before they take any work: anything but
 * noeviction stops them with one line naming the setting, unless ALLOW_EVICTION=1.
 */
let redis: PrivateRedis | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  await redis?.destroy();
  redis = undefined;
});
afterAll(removeEmptyDirs);

const env = (url: string, extra: Record<string, string> = {}) => ({
  REDIS_URL: url,
  ENCRYPTION_KEYS: `k1:${randomBytes(32).toString("base64")}`,
  ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/analytics/graphql",
  SLACK_BOT_TOKEN: DEMO.botToken,
  SLACK_SIGNING_SECRET: "test-signing-secret",
  HEALTH_PORT: "0",
  PORT: "0",
  ...extra,
});

function connect(url: string, role: "client" | "worker" = "client"): RedisClient {
  const c = connectRedis(url, silentLogger(), role);
  closers.push(() => c.quit());
  return c;
}

async function evicting(policy = "allkeys-lru"): Promise<PrivateRedis> {
  redis = await startPrivateRedis();
  const admin = connect(redis.url);
  await admin.config("SET", "maxmemory-policy", policy);
  return redis;
}

describe("maxmemory-policy at start", () => {
  it("the worker command refuses allkeys-lru with one line naming the setting", async () => {
    const r = await evicting();
    const run = await cli(["worker"], { env: env(r.url) });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^insights-digest: [^\n]+\n$/);
    expect(run.stderr).toContain('Redis maxmemory-policy is "allkeys-lru": set it to noeviction');
    expect(run.stderr).toContain("ALLOW_EVICTION=1");
  });

  it("web refuses it too; ALLOW_EVICTION=1 starts both, and /readyz reports the policy", async () => {
    const r = await evicting("volatile-lru");
    const web = (extra: Record<string, string>) =>
      startWeb({ config: loadConfig("web", env(r.url, extra)), logger: silentLogger(), host: "127.0.0.1" });
    await expect(web({})).rejects.toMatchObject({
      code: "redis_eviction",
      message: expect.stringContaining('maxmemory-policy is "volatile-lru"'),
    });

    const { logger, lines } = capturingLogger("info");
    const allowed = await startWeb({
      config: loadConfig("web", env(r.url, { ALLOW_EVICTION: "1" })),
      logger,
      host: "127.0.0.1",
    });
    closers.push(() => allowed.close());
    expect(await (await fetch(`${allowed.url}/readyz`)).json()).toEqual({
      ok: true,
      redis: "up",
      maxmemoryPolicy: "volatile-lru",
    });
    expect(lines.some((l) => l.includes("starting anyway (ALLOW_EVICTION=1)"))).toBe(true);

    const worker = await startWorker({
      config: loadConfig("worker", env(r.url, { ALLOW_EVICTION: "1" })),
      logger: silentLogger(),
      redis: connect(r.url, "worker"),
      healthPort: 0,
      interactive: false,
    });
    closers.push(() => worker.close());
    expect(await (await fetch(`http://127.0.0.1:${worker.healthPort}/readyz`)).json()).toEqual({
      ok: true,
      redis: "up",
      maxmemoryPolicy: "volatile-lru",
      writes: { mode: "auto", waiting: false, last: "none" },
    });
  });

  it("read from INFO where CONFIG is refused (as managed services do); a warning where neither answers", async () => {
    const r = await evicting("allkeys-random");
    const admin = connect(r.url);
    // A user like a managed service's: everything but CONFIG; another without INFO either.
    await admin.acl("SETUSER", "noconfig", "on", ">pw1", "~*", "&*", "+@all", "-config");
    await admin.acl("SETUSER", "blind", "on", ">pw2", "~*", "&*", "+@all", "-config", "-info");
    const port = r.port;
    const noConfig = connect(`redis://noconfig:pw1@127.0.0.1:${port}`);
    await expect(noConfig.config("GET", "maxmemory-policy")).rejects.toThrow(/NOPERM/);
    expect(await readEvictionPolicy(noConfig)).toEqual({ policy: "allkeys-random" });

    const blind = connect(`redis://blind:pw2@127.0.0.1:${port}`);
    const read = await readEvictionPolicy(blind);
    expect(read.policy).toBeNull();
    expect(read).toMatchObject({ why: expect.stringMatching(/INFO: NOPERM.*CONFIG GET: NOPERM/) });
    const { logger, lines } = capturingLogger("info");
    expect(await checkEviction({ redis: blind, allowEviction: false, logger })).toEqual({
      policy: null,
      ok: true,
    });
    expect(lines.join("\n")).toContain("could not read Redis maxmemory-policy; it must be noeviction");
  });

  it("noeviction on every master of the test cluster passes", async () => {
    // The shared test servers run with noeviction (sandbox/redis.ts DURABILITY_FLAGS).
    expect(await readEvictionPolicy(connect(inject("redisClusterUrl")))).toEqual({ policy: "noeviction" });
  });
});

describe("maxmemory-policy changed while the app runs", () => {
  const readyz = async (base: string) => {
    const res = await fetch(`${base}/readyz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  /** Web and worker on a fresh noeviction Redis, reading the policy every 100 ms, one log each. */
  async function running(extra: Record<string, string> = {}) {
    const r = await startPrivateRedis();
    redis = r;
    const web = capturingLogger("info");
    const worker = capturingLogger("info");
    const w = await startWeb({
      config: loadConfig("web", env(r.url, extra)),
      logger: web.logger,
      host: "127.0.0.1",
      evictionCheckMs: 100,
    });
    closers.push(() => w.close());
    const k = await startWorker({
      config: loadConfig("worker", env(r.url, extra)),
      logger: worker.logger,
      redis: connect(r.url, "worker"),
      healthPort: 0,
      interactive: false,
      evictionCheckMs: 100,
    });
    closers.push(() => k.close());
    const urls = [w.url, `http://127.0.0.1:${k.healthPort}`];
    // The worker's /readyz also reports its write confirmations (none asked of a lone server).
    const own = (url: string) =>
      url === urls[1] ? { writes: { mode: "auto", waiting: false, last: "none" } } : {};
    const policy = (p: string) => connect(r.url).config("SET", "maxmemory-policy", p);
    return { urls, own, logs: [web.lines, worker.lines], policy };
  }
  const lines = (log: string[], text: string) =>
    log.map((l) => JSON.parse(l) as { level: string; msg: string }).filter((l) => l.msg.includes(text));

  it("CONFIG SET allkeys-lru: one error in each log, /readyz 503 on web and worker until noeviction again", {
    timeout: 60_000,
  }, async () => {
    const { urls, own, logs, policy } = await running();
    for (const url of urls)
      expect(await readyz(url)).toEqual({
        status: 200,
        body: { ok: true, redis: "up", maxmemoryPolicy: "noeviction", ...own(url) },
      });

    await policy("allkeys-lru");
    for (const url of urls) {
      await until(async () => (await readyz(url)).status === 503, 10_000, `${url} not ready`);
      expect(await readyz(url)).toEqual({
        status: 503,
        body: {
          ok: false,
          redis: "up",
          problem: "Redis maxmemory-policy is allkeys-lru, not noeviction",
          maxmemoryPolicy: "allkeys-lru",
          ...own(url),
        },
      });
    }
    // Many reads later, each process has said it once, as an error.
    await sleep(600);
    for (const log of logs) {
      const said = lines(log, "maxmemory-policy changed from noeviction to allkeys-lru");
      expect(said.map((l) => l.level)).toEqual(["error"]);
      expect(said[0]?.msg).toContain("/readyz fails until it is noeviction again");
    }

    await policy("noeviction");
    for (const url of urls)
      await until(async () => (await readyz(url)).status === 200, 10_000, `${url} ready`);
    for (const log of logs) expect(lines(log, "is noeviction now (was allkeys-lru)")).toHaveLength(1);
  });

  it("with ALLOW_EVICTION=1 the change is one warning and readiness stays", { timeout: 60_000 }, async () => {
    const { urls, own, logs, policy } = await running({ ALLOW_EVICTION: "1" });
    await policy("volatile-lru");
    for (const url of urls)
      await until(async () => (await readyz(url)).body.maxmemoryPolicy === "volatile-lru", 10_000, url);
    await sleep(600);
    for (const url of urls)
      expect(await readyz(url)).toEqual({
        status: 200,
        body: { ok: true, redis: "up", maxmemoryPolicy: "volatile-lru", ...own(url) },
      });
    for (const log of logs)
      expect(lines(log, "changed from noeviction to volatile-lru").map((l) => l.level)).toEqual(["warn"]);
  });
});
