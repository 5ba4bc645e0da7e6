import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, inject, it } from "vitest";
import { type PrivateRedis, redisPidOn, startPrivateRedis } from "../../sandbox/redis.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { startStreamConsumer } from "../../src/interactive/consumer.ts";
import { handOff } from "../../src/interactive/hand-off.ts";
import { createStreamExecutor } from "../../src/interactive/queue.ts";
import { HANDOFF } from "../../src/interactive/stream.ts";
import type { InteractiveJob, InteractiveOutcome } from "../../src/interactive/types.ts";
import { silentLogger } from "../../src/log.ts";
import { createWriteConfirmer } from "../../src/store/confirm-writes.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

/**
 * The hand-off's deadline, against a real Redis: the web process writes a request again while the
 * write fails, tells the person it failed only once a late landing of any of its writes is one the
 * workers skip, and the workers skip such an entry. A person gets the answer or the failure, not both.
 */

const clients: RedisClient[] = [];
const servers: PrivateRedis[] = [];
const frozen: number[] = [];
afterEach(async () => {
  for (const pid of frozen.splice(0)) process.kill(pid, "SIGCONT");
  for (const c of clients.splice(0)) c.disconnect();
  for (const s of servers.splice(0)) await s.destroy();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const job = (id: string): InteractiveJob => ({
  v: 1,
  id,
  route: { kind: "command", name: "digest" },
  team: { teamId: "T0HANDOFF" },
  userId: "U0HANDOFF",
  receivedAt: Date.now(),
  surface: { channelId: "C0HANDOFF" } as InteractiveJob["surface"],
  log: {},
});

/** A private Redis the test may pause (SIGSTOP), with a connection whose commands give up after `deadlineMs`. */
async function pausableRedis(deadlineMs: number) {
  const server = await startPrivateRedis();
  servers.push(server);
  const redis = connectRedis(server.url, silentLogger(), "client", deadlineMs);
  clients.push(redis);
  await redis.ping();
  const pid = await redisPidOn(server.port);
  if (!pid) throw new Error("no redis-server");
  return {
    server,
    redis,
    prefix: `{t-handoff-${randomUUID().slice(0, 8)}}`,
    pause: () => {
      process.kill(pid, "SIGSTOP");
      frozen.push(pid);
    },
    resume: () => {
      process.kill(pid, "SIGCONT");
      frozen.splice(frozen.indexOf(pid), 1);
    },
  };
}

/** A consumer on `redis` that records what it runs. */
function consumer(redis: RedisClient, prefix: string) {
  const ran: string[] = [];
  const c = startStreamConsumer({
    connection: redis,
    prefix,
    concurrency: 4,
    logger: silentLogger(),
    blockMs: 100,
    run: async (j): Promise<InteractiveOutcome> => {
      ran.push(j.id);
      return { id: j.id, kind: "command", name: "digest", outcome: "ok" };
    },
  });
  return { ran, close: () => c.close() };
}

describe("the hand-off's deadline", () => {
  it("a worker skips an entry that reached the stream after its web process gave up on it, and runs one in time", async () => {
    const redis = connectRedis(inject("redisUrl"), silentLogger());
    clients.push(redis);
    const prefix = `{t-handoff-${randomUUID().slice(0, 8)}}`;
    const executor = createStreamExecutor({ connection: redis, prefix });
    // Landed now, though its web process stopped trying 10 s ago (and told the person so).
    const late = { ...job("r-late"), handOffBy: Date.now() - 10_000 };
    // Landed just inside what the workers still run: its web process may have had the reply.
    const edge = { ...job("r-edge"), handOffBy: Date.now() - HANDOFF.graceMs - HANDOFF.skewMs + 1_500 };
    const old = job("r-before-deadlines");
    await Promise.all([executor.submit(late), executor.submit(edge), executor.submit(old)]);
    const c = consumer(redis, prefix);
    const until = Date.now() + 5_000;
    while ((await redis.xlen(executor.key)) > 0 && Date.now() < until) await sleep(50);
    await c.close();
    await executor.close();
    expect(c.ran.sort()).toEqual(["r-before-deadlines", "r-edge"]);
    // The skipped entry is acknowledged and gone too: nothing is left to run later.
    expect(await redis.xlen(executor.key)).toBe(0);
  });

  it("a write no replica acknowledged is not a hand-off: it fails, as one to write again", async () => {
    const redis = connectRedis(inject("redisUrl"), silentLogger());
    clients.push(redis);
    const prefix = `{t-handoff-${randomUUID().slice(0, 8)}}`;
    // REDIS_CONFIRM_WRITES=replica on a server without one: nothing is ever acknowledged.
    const executor = createStreamExecutor({
      connection: redis,
      prefix,
      confirmWith: (writer) =>
        createWriteConfirmer({ redis: writer, mode: "replica", timeoutMs: 100, logger: silentLogger() }),
    });
    await expect(executor.submit(job("r-unconfirmed"))).rejects.toMatchObject({
      code: "redis_unconfirmed",
      retriable: true,
    });
    await executor.close();
  });

  it("through a pause shorter than the window the request is written again and handed off; through a longer one it fails, and what lands later is not run", {
    timeout: 60_000,
  }, async () => {
    // The web process's connection: commands with a 2 s deadline, retried over reconnects.
    const { server, redis, prefix, pause, resume } = await pausableRedis(2_000);
    const executor = createStreamExecutor({ connection: redis, prefix });

    // Paused 3 s: the first write times out, a later one gets through.
    pause();
    const short = handOff(executor, job("r-short"));
    await sleep(3_000);
    resume();
    await short;

    // Paused past the window: the hand-off fails, and not before a late landing is one workers skip.
    pause();
    const started = Date.now();
    const long = handOff(executor, job("r-long")).then(
      () => "handed off",
      () => Date.now() - started,
    );
    const failedAfter = await long;
    expect(failedAfter).toEqual(expect.any(Number));
    expect(failedAfter).toBeGreaterThanOrEqual(HANDOFF.windowMs + HANDOFF.graceMs + 2 * HANDOFF.skewMs - 50);
    resume();

    // The paused server then takes the writes waiting in its socket, and the client sends again those
    // it had no reply to: they land, and are not run.
    await sleep(3_000);
    // A worker's own connection reads them.
    const worker = connectRedis(server.url, silentLogger(), "client", 2_000);
    clients.push(worker);
    const c = consumer(worker, prefix);
    const until = Date.now() + 5_000;
    while ((await worker.xlen(executor.key)) > 0 && Date.now() < until) await sleep(50);
    await c.close();
    await executor.close();
    expect(c.ran.filter((id) => id === "r-long")).toEqual([]);
    // Written more than once (each write that timed out landed on the resume): run, each time, and
    // the request's claim keeps that to one answer.
    expect(c.ran).toContain("r-short");
    expect(await worker.xlen(executor.key)).toBe(0);
  });
});

describe("a worker's reader", () => {
  it("started while Redis does not answer, it keeps trying, and reads what is handed off once Redis is back", {
    timeout: 30_000,
  }, async () => {
    // A connection that gives up on a command (a deadline, few retries), as a request thread's is: the
    // reader's first commands fail while the server is paused.
    const { server, redis: worker, prefix, pause, resume } = await pausableRedis(500);
    pause();
    const c = consumer(worker, prefix);
    // Long enough for the group's creation to fail more than once.
    await sleep(2_500);
    resume();

    const web = connectRedis(server.url, silentLogger());
    clients.push(web);
    const executor = createStreamExecutor({ connection: web, prefix });
    await executor.submit(job("r-after-the-pause"));
    const until = Date.now() + 10_000;
    while (!c.ran.includes("r-after-the-pause") && Date.now() < until) await sleep(50);
    await c.close();
    await executor.close();
    expect(c.ran).toEqual(["r-after-the-pause"]);
  });
});
