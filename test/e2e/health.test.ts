import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../src/sandbox/redis.ts";
import { type Stack, startStack } from "../../src/sandbox/stack.ts";

let redis: PrivateRedis;
let stack: Stack;

beforeAll(async () => {
  // A Redis of its own: this test stops it.
  redis = await startPrivateRedis();
  stack = await startStack({ redisUrl: redis.url, prefix: "health" });
});
afterAll(async () => {
  await redis.restart().catch(() => undefined);
  await stack?.close();
  await redis?.destroy();
});

describe("health routes", () => {
  it("/healthz answers while the process is up; /readyz follows Redis", async () => {
    expect((await fetch(`${stack.web.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${stack.web.url}/readyz`)).status).toBe(200);
    await redis.stop("SIGKILL");
    const down = await fetch(`${stack.web.url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ ok: false, redis: "down" });
    expect((await fetch(`${stack.web.url}/healthz`)).status).toBe(200);
    await redis.restart();
    await stack.redis.ping().catch(() => undefined);
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await fetch(`${stack.web.url}/readyz`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
