import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, redisPidOn, startPrivateRedis } from "../../sandbox/redis.ts";
import { findElement } from "../../sandbox/slack/index.ts";
import type { Stack } from "../../sandbox/stack.ts";
import { connectRedis } from "../../src/app/redis.ts";
import { ACTION } from "../../src/ids.ts";
import { silentLogger } from "../../src/log.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { connect, startTestStack, who } from "./helpers.ts";
import { requestClaims, spawnWorker, type WorkerProcess } from "./interactive-helpers.ts";

/**
 * A handed-off request's answer waits, as a delivery's post does, until a replica holds its claim:
 * on a primary whose writes a failover could throw away, an answer given and then forgotten is given
 * again by the run after the failover. Here the replica is frozen (SIGSTOP: the primary still counts
 * it connected, as it does one cut off until repl-timeout), so no WAIT is acknowledged.
 */

const FAST = { streamLeaseMs: 1_000, claimLeaseMs: 1_500, insightsLockMs: 3_000 };
const servers: PrivateRedis[] = [];
const conns: RedisClient[] = [];
const frozen: number[] = [];
const workers: WorkerProcess[] = [];
let stack: Stack | undefined;

afterEach(async () => {
  for (const pid of frozen.splice(0)) process.kill(pid, "SIGCONT");
  for (const w of workers.splice(0)) {
    w.child.kill("SIGKILL");
    await w.exited;
  }
  await stack?.close?.();
  stack = undefined;
  for (const c of conns.splice(0)) c.disconnect();
  for (const s of servers.splice(0)) await s.destroy();
});

/** A primary with a replica in sync, and the app's web process on the primary with the demo key connected. */
async function stackWithReplica(name: string) {
  const [primary, replica] = await Promise.all([startPrivateRedis(), startPrivateRedis()]);
  servers.push(primary, replica);
  const replicaAdmin = connectRedis(replica.url, silentLogger());
  conns.push(replicaAdmin);
  await replicaAdmin.replicaof("127.0.0.1", primary.port);
  const deadline = Date.now() + 20_000;
  while (!/master_link_status:up/.test(await replicaAdmin.info("replication"))) {
    if (Date.now() > deadline) throw new Error("the replica never came in sync");
    await new Promise((r) => setTimeout(r, 100));
  }
  const s = await startTestStack({ redisUrl: primary.url, prefix: name, interactive: "queue" });
  stack = s;
  await s.web.ready();
  await connect(s);
  return { s, replica };
}

const accepted = (s: Stack, url: string) => s.slack.responses(url).filter((r) => r.status === 200);

describe("a handed-off request's answer is confirmed by a replica before it goes out", () => {
  // On a request thread (INTERACTIVE_WORKER_THREADS=1) the same runner confirms; a run that throws
  // there comes back unfinished to the consumer (test/unit/thread-pool-close.test.ts).
  it("nothing goes out while no replica acknowledges the hand-off and the claim; once one does (within the hand-off's 15 s), one answer and no failure note", {
    timeout: 90_000,
  }, async () => {
    const { s, replica } = await stackWithReplica(`e2e-ic-${process.pid}`);
    const worker = await spawnWorker(s, FAST);
    workers.push(worker);
    const pid = await redisPidOn(replica.port);
    if (!pid) throw new Error("no replica process");
    process.kill(pid, "SIGSTOP");
    frozen.push(pid);

    const sent = await s.slack.sendCommand({ ...who(), text: "last9d" });
    const url = sent.responseUrl as string;
    // The web's writes of the request go unconfirmed (it writes again); the worker runs what landed,
    // finds its claim unconfirmed, and runs it again: twice, with nothing shown.
    await s.slack.waitFor(
      () => worker.lines.filter((l) => l.msg === "interactive request runs again shortly").length >= 2,
      { timeoutMs: 30_000, what: "two runs of the request held back for want of a replica" },
    );
    expect(accepted(s, url)).toEqual([]);

    process.kill(pid, "SIGCONT");
    frozen.splice(frozen.indexOf(pid), 1);
    const reply = await s.slack.waitFor(() => accepted(s, url)[0], {
      timeoutMs: 20_000,
      what: "the answer once the replica acknowledges",
    });
    expect(reply.outcome).toBe("ephemeral");
    expect(findElement((reply.body as { blocks: unknown[] }).blocks, ACTION.share)).toBeDefined();
    // Room for a second answer, or a late "it failed", to show up.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(s.slack.responses(url)).toHaveLength(1);
    expect(Object.values(await requestClaims(s))).toContain("d");
  });
});
