import { Redis } from "ioredis";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { type HealthServer, startHealthServer } from "../../src/jobs/health.ts";
import { type Harness, startHarness, until } from "./worker-harness.ts";

let h: Harness | undefined;
let privateRedis: PrivateRedis | undefined;
let conn: Redis | undefined;
let health: HealthServer | undefined;

afterEach(async () => {
  await health?.close();
  conn?.disconnect();
  await h?.close();
  await privateRedis?.destroy();
  [h, privateRedis, conn, health] = [undefined, undefined, undefined, undefined];
});

/** A single server without replicas: nothing to wait for, nothing waited for yet. */
const UNCONFIRMED_SINGLE = { mode: "auto", waiting: false, last: "none" };

async function readyz(base: string) {
  const res = await fetch(`${base}/readyz`);
  return { status: res.status, body: await res.json() };
}

describe("worker /readyz", () => {
  it("follows Redis as the web's does: 503 redis down while it is gone, 200 once it is back", async () => {
    // A Redis of its own, killed here; a connection set up as the worker's is (retries forever).
    privateRedis = await startPrivateRedis();
    conn = new Redis(privateRedis.url, { maxRetriesPerRequest: null });
    conn.on("error", () => undefined);
    health = await startHealthServer({ port: 0, host: "127.0.0.1", ready: () => true, redis: conn });
    const base = `http://127.0.0.1:${health.port}`;
    expect(await readyz(base)).toEqual({ status: 200, body: { ok: true, redis: "up" } });
    await privateRedis.stop("SIGKILL");
    expect(await readyz(base)).toEqual({ status: 503, body: { ok: false, redis: "down" } });
    // Liveness is not readiness: the process is up, so an orchestrator must not restart it.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await privateRedis.restart();
    await until(async () => (await readyz(base)).status === 200, 10_000, "/readyz back to 200");
    expect(await readyz(base)).toEqual({ status: 200, body: { ok: true, redis: "up" } });
  });

  it("is wired into the worker: up with Redis, 503 worker stopped once it stops taking jobs", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    expect(await readyz(base)).toEqual({
      status: 200,
      body: { ok: true, redis: "up", maxmemoryPolicy: "noeviction", writes: UNCONFIRMED_SINGLE },
    });
    await w.worker.pause();
    expect(await readyz(base)).toEqual({
      status: 503,
      body: {
        ok: false,
        redis: "up",
        worker: "stopped",
        maxmemoryPolicy: "noeviction",
        writes: UNCONFIRMED_SINGLE,
      },
    });
    w.worker.resume();
    expect(await readyz(base)).toEqual({
      status: 200,
      body: { ok: true, redis: "up", maxmemoryPolicy: "noeviction", writes: UNCONFIRMED_SINGLE },
    });
  });
});
