import { randomUUID } from "node:crypto";
import { connect, type Socket } from "node:net";
import { afterAll, describe, expect, inject, it } from "vitest";
import { connectRedis } from "../../src/app/redis.ts";
import { createStreamExecutor } from "../../src/interactive/queue.ts";
import { STREAM_GROUP } from "../../src/interactive/stream.ts";
import type { InteractiveJob } from "../../src/interactive/types.ts";
import { silentLogger } from "../../src/log.ts";
import { isCluster, type RedisClient } from "../../src/store/redis-client.ts";

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

  /**
   * The hand-off scripts Redis ran on `key`, counted from MONITOR on every server that may hold it (a
   * plain socket: the stream of lines is all it needs, and it sees every client's commands).
   */
  async function scriptCalls(redis: RedisClient, key: string) {
    // A cluster client knows its masters once its first command has brought the slot map.
    await redis.ping();
    const servers = isCluster(redis) ? redis.nodes("master").map((n) => n.options) : [redis.options];
    let calls = 0;
    const sockets = await Promise.all(
      servers.map(
        ({ host, port }) =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(port ?? 6379, host ?? "127.0.0.1");
            let buffered = "";
            socket.on("error", reject);
            socket.on("data", (chunk) => {
              buffered += chunk.toString("utf8");
              for (let end = buffered.indexOf("\r\n"); end >= 0; end = buffered.indexOf("\r\n")) {
                const line = buffered.slice(0, end);
                buffered = buffered.slice(end + 2);
                if (line === "+OK") resolve(socket);
                else if (/^\+[0-9.]+ \[[^\]]*\] "(evalsha|eval)" /i.test(line) && line.includes(`"${key}"`))
                  calls += 1;
              }
            });
            socket.write("MONITOR\r\n");
          }),
      ),
    );
    return {
      count: () => calls,
      stop: () => {
        for (const s of sockets) s.destroy();
      },
    };
  }

  it("writes the requests of one gathering with one script call, each an entry of its own", async () => {
    const redis = connectRedis(url(), silentLogger());
    clients.push(redis);
    const prefix = `{t-gather-${randomUUID().slice(0, 8)}}`;
    const executor = createStreamExecutor({ connection: redis, prefix, gatherMs: 50 });
    // One request first, unwatched: the server that holds the stream then has the script, so a first
    // call refused for want of it (and sent again with the script's text) cannot count twice below.
    await executor.submit(job("r0"));
    const seen = await scriptCalls(redis, executor.key);
    try {
      await Promise.all(["r1", "r2", "r3", "r4", "r5"].map((id) => executor.submit(job(id))));
      const entries = (await redis.xrange(executor.key, "-", "+")) as [string, string[]][];
      expect(entries.map(([, fields]) => JSON.parse(fields[1] as string).id)).toEqual([
        "r0",
        "r1",
        "r2",
        "r3",
        "r4",
        "r5",
      ]);
      expect(executor.waiting().count).toBe(6);
      // MONITOR's lines can trail the command's reply: wait until the one call shows.
      for (let i = 0; i < 250 && seen.count() === 0; i++) await sleep(20);
      expect(seen.count()).toBe(1);
      // A later request is a gathering of its own.
      await executor.submit(job("r6"));
      for (let i = 0; i < 250 && seen.count() === 1; i++) await sleep(20);
      expect(seen.count()).toBe(2);
    } finally {
      seen.stop();
    }
  });

  it("writes a full gathering at once, and what is gathered when it closes", async () => {
    const redis = connectRedis(url(), silentLogger());
    clients.push(redis);
    const prefix = `{t-gather-${randomUUID().slice(0, 8)}}`;
    // A gathering that would outlast the test: only its size, or the close, can write it.
    const executor = createStreamExecutor({ connection: redis, prefix, gatherMs: 60_000, maxBatch: 2 });
    const late = sleep(2_000).then(() => "still gathering");
    const full = Promise.all([executor.submit(job("r1")), executor.submit(job("r2"))]).then(() => "written");
    expect(await Promise.race([full, late])).toBe("written");
    const third = executor.submit(job("r3")).then(() => "written");
    await sleep(50);
    expect(await redis.xlen(executor.key)).toBe(2);
    await executor.close();
    expect(await Promise.race([third, late])).toBe("written");
    expect(await redis.xlen(executor.key)).toBe(3);
  });

  it("fails every request of a write Redis refuses, and stores none of them", async () => {
    const redis = connectRedis(url(), silentLogger());
    clients.push(redis);
    const prefix = `{t-gather-${randomUUID().slice(0, 8)}}`;
    const executor = createStreamExecutor({ connection: redis, prefix, gatherMs: 20 });
    // The stream's key holds a string: XADD answers WRONGTYPE.
    await redis.set(executor.key, "not a stream");
    const outcomes = await Promise.allSettled([executor.submit(job("r1")), executor.submit(job("r2"))]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
    expect(await redis.get(executor.key)).toBe("not a stream");
  });
});
