import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { connectRedis } from "../../src/app/redis.ts";
import { createStreamExecutor } from "../../src/interactive/queue.ts";
import { STREAM_GROUP } from "../../src/interactive/stream.ts";
import type { InteractiveJob } from "../../src/interactive/types.ts";
import { silentLogger } from "../../src/log.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

/**
 * The web side's reading of the hand-off's backlog, against a real Redis (one node and a cluster):
 * how many requests no worker has taken yet, and how long the oldest of them has waited. Admission
 * control answers "busy" on that wait, so it must grow while requests sit, and fall to nothing once a
 * worker has taken them.
 */
const clients: RedisClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.quit().catch(() => undefined);
});

const job = (id: string): InteractiveJob =>
  ({ id, receivedAt: Date.now(), team: { teamId: "T0BACKLOG" } }) as unknown as InteractiveJob;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each([
  ["one node", () => inject("redisUrl")],
  ["a cluster", () => inject("redisClusterUrl")],
])("the interactive backlog on %s", (_name, url) => {
  it("counts the requests no worker has taken and how long the oldest has waited", async () => {
    const redis = connectRedis(url(), silentLogger());
    clients.push(redis);
    const prefix = `{t-backlog-${randomUUID().slice(0, 8)}}`;
    const executor = createStreamExecutor({ connection: redis, prefix });
    expect(await executor.depth()).toBe(0);
    expect(executor.waiting()).toMatchObject({ count: 0, waitedMs: 0 });

    // No worker yet (no consumer group): every entry waits, the first since it was added.
    await executor.submit(job("r1"));
    await sleep(120);
    await executor.submit(job("r2"));
    const before = executor.waiting();
    expect(before.count).toBe(2);
    expect(before.waitedMs).toBeGreaterThanOrEqual(100);
    expect(before.waitedMs).toBeLessThan(5_000);

    // A worker's group takes the first: the second is now the oldest waiting, younger than the first.
    await redis.call("XGROUP", "CREATE", executor.key, STREAM_GROUP, "0");
    await redis.call("XREADGROUP", "GROUP", STREAM_GROUP, "w1", "COUNT", "1", "STREAMS", executor.key, ">");
    await sleep(60);
    expect(await executor.depth()).toBe(1);
    const after = executor.waiting();
    expect(after.waitedMs).toBeGreaterThanOrEqual(50);
    expect(after.waitedMs).toBeLessThan(before.waitedMs + 60);

    // Everything taken: nothing waits, however long the taken ones have been running.
    await redis.call("XREADGROUP", "GROUP", STREAM_GROUP, "w1", "COUNT", "10", "STREAMS", executor.key, ">");
    expect(await executor.depth()).toBe(0);
    expect(executor.waiting()).toMatchObject({ count: 0, waitedMs: 0 });
  });
});
