import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, redisPidOn, startPrivateRedis } from "../../sandbox/redis.ts";
import { type PrivateRedisSentinel, startPrivateRedisSentinel } from "../../sandbox/redis-sentinel.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { connectRedis, promotable, sentinelWatch } from "../../src/app/redis.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { silentLogger } from "../../src/log.ts";
import { createWriteConfirmer, serverFacts } from "../../src/store/confirm-writes.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { MIN_REPLICAS_WARNING, readReplicationSettings } from "../../src/store/replication-report.ts";
import { type Harness, insertSubscription, REF, sleep, startHarness, until } from "./worker-harness.ts";

/**
 * Writes that decide a post wait for a replica: a primary whose replica does not acknowledge (here a
 * replica frozen with SIGSTOP, which the primary still counts as connected, as it does a replica cut
 * off by a partition until repl-timeout) must not lead to a post, and the post follows once it does.
 */

let h: Harness | undefined;
let cleanupWatch: (() => void) | undefined;
let sentinel: PrivateRedisSentinel | undefined;
const servers: PrivateRedis[] = [];
const conns: RedisClient[] = [];
const frozen: number[] = [];
afterEach(async () => {
  for (const pid of frozen.splice(0)) process.kill(pid, "SIGCONT");
  for (const c of conns.splice(0)) c.disconnect();
  cleanupWatch?.();
  cleanupWatch = undefined;
  await h?.close();
  await sentinel?.destroy();
  for (const s of servers.splice(0)) await s.destroy();
  h = undefined;
  sentinel = undefined;
});

/** A primary and a replica of it, in sync. */
async function primaryWithReplica(): Promise<{
  primary: PrivateRedis;
  replica: PrivateRedis;
  admin: RedisClient;
}> {
  const [primary, replica] = await Promise.all([startPrivateRedis(), startPrivateRedis()]);
  servers.push(primary, replica);
  const admin = connectRedis(primary.url, silentLogger());
  const replicaAdmin = connectRedis(replica.url, silentLogger());
  conns.push(admin, replicaAdmin);
  await replicaAdmin.replicaof("127.0.0.1", primary.port);
  await until(
    async () => /master_link_status:up/.test(await replicaAdmin.info("replication")),
    20_000,
    "the replica in sync",
  );
  return { primary, replica, admin };
}

async function freeze(server: PrivateRedis): Promise<number> {
  const pid = await redisPidOn(server.port);
  if (!pid) throw new Error(`no redis-server answers on ${server.port}`);
  process.kill(pid, "SIGSTOP");
  frozen.push(pid);
  return pid;
}

function thaw(pid: number) {
  process.kill(pid, "SIGCONT");
  frozen.splice(frozen.indexOf(pid), 1);
}

const waitCalls = async (admin: RedisClient) =>
  Number(/^cmdstat_wait:calls=(\d+)/m.exec(await admin.info("commandstats"))?.[1] ?? 0);

const digestsIn = (harness: Harness, channel: string) =>
  harness.slack.messages(channel).filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);

describe("writes that decide a post are confirmed by a replica", () => {
  it("a claim no replica acknowledges is not posted on; the digest goes out once when the replica answers again", {
    timeout: 90_000,
  }, async () => {
    const { primary, replica, admin } = await primaryWithReplica();
    h = await startHarness({ redisUrl: primary.url });
    const harness = h;
    await harness.worker({ policy: { attempts: 2, backoffMs: 100 } });
    const sub = await insertSubscription(harness, { channelId: DEMO.security, drivers: false });
    const pid = await freeze(replica);
    const period = "20261102T080000Z";
    await harness
      .producer()
      .queue.add(
        "catchup",
        { sub: `${workspaceLabel(REF)}.${sub.id}`, period, ch: sub.channelId },
        { jobId: `confirm.${sub.id}` },
      );
    // Rounds of WAIT that time out (2 s each) while the delivery waits and tries again, using no
    // attempt: with two attempts, failing them would have posted a failure notice by now.
    await until(async () => (await waitCalls(admin)) >= 3, 40_000, "three unanswered rounds of WAIT", 200);
    expect(harness.slack.messages(DEMO.security)).toEqual([]);
    const job = await harness.producer().queue.getJob(`confirm.${sub.id}`);
    expect(job?.attemptsMade).toBe(0);

    thaw(pid);
    await harness.slack.waitFor(() => digestsIn(harness, DEMO.security).length > 0, {
      timeoutMs: 30_000,
      what: "the digest posted once the replica answers",
    });
    await sleep(1_500);
    expect(digestsIn(harness, DEMO.security)).toHaveLength(1);
    expect(harness.slack.messages(DEMO.security)).toHaveLength(1);
  });

  it("REDIS_CONFIRM_WRITES=off posts without waiting for the replica", { timeout: 60_000 }, async () => {
    const { primary, replica, admin } = await primaryWithReplica();
    h = await startHarness({ redisUrl: primary.url });
    const harness = h;
    await harness.worker({ config: { ...harness.config, redisConfirmWrites: "off" } });
    const sub = await insertSubscription(harness, { channelId: DEMO.security, drivers: false });
    await freeze(replica);
    await harness
      .producer()
      .queue.add(
        "catchup",
        { sub: `${workspaceLabel(REF)}.${sub.id}`, period: "20261102T080000Z", ch: sub.channelId },
        { jobId: `off.${sub.id}` },
      );
    await harness.slack.waitFor(() => digestsIn(harness, DEMO.security).length > 0, {
      timeoutMs: 30_000,
      what: "the digest posted",
    });
    expect(await waitCalls(admin)).toBe(0);
  });

  it("callers that ask together share one WAIT; a frozen replica makes them all false within the timeout", async () => {
    const { replica, admin } = await primaryWithReplica();
    const decisive = connectRedis(servers[0]?.url as string, silentLogger());
    conns.push(decisive);
    const confirmer = createWriteConfirmer({
      redis: decisive,
      mode: "auto",
      timeoutMs: 1_000,
      logger: silentLogger(),
    });
    expect(confirmer.report()).toEqual({ mode: "auto", waiting: false, last: "none" });
    const before = await waitCalls(admin);
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        await decisive.set(`confirm:${i}`, "v");
        return confirmer.confirm();
      }),
    );
    expect(answers).toEqual(answers.map(() => true));
    // One round for the first caller, one shared by the 49 that asked while it was out (a third at
    // most, when a write's reply arrives after the second round left).
    expect((await waitCalls(admin)) - before).toBeLessThanOrEqual(3);
    expect(confirmer.report()).toEqual({ mode: "auto", waiting: true, last: "confirmed" });

    await freeze(replica);
    await decisive.set("confirm:frozen", "v");
    const started = Date.now();
    expect(await Promise.all([confirmer.confirm(), confirmer.confirm()])).toEqual([false, false]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(confirmer.report().last).toBe("unconfirmed");
  });

  it("counts a replica Sentinel could still promote: up, or down for less than ten times down-after", () => {
    // A replica frozen past down-after comes back and is promoted with what it had: until Sentinel
    // would no longer choose it, writes wait for it.
    expect(promotable({ flags: "slave", "master-link-status": "ok" }, 3_000)).toBe(true);
    expect(promotable({ flags: "slave", "master-link-status": "err" }, 3_000)).toBe(true);
    expect(promotable({ flags: "s_down,slave", "s-down-time": "29999" }, 3_000)).toBe(true);
    expect(promotable({ flags: "s_down,slave", "s-down-time": "30000" }, 3_000)).toBe(false);
    expect(promotable({ flags: "s_down,slave,disconnected", "s-down-time": "600000" }, 30_000)).toBe(false);
  });

  it("reads what a server can promise from INFO", () => {
    const info = (version: string, aof: string, role = "master", slaves = "1") =>
      `# Server\r\nredis_version:${version}\r\n# Persistence\r\naof_enabled:${aof}\r\n# Replication\r\nrole:${role}\r\nconnected_slaves:${slaves}\r\n`;
    expect(serverFacts(info("7.0.15", "1"))).toEqual({ replicas: 1, waitaof: false, runId: "" });
    expect(serverFacts(info("7.2.4", "1"))).toEqual({ replicas: 1, waitaof: true, runId: "" });
    expect(serverFacts(`${info("8.0.0", "0", "master", "2")}run_id:abc\r\n`)).toEqual({
      replicas: 2,
      waitaof: false,
      runId: "abc",
    });
    expect(serverFacts(info("7.2.4", "1", "slave", "0"))).toEqual({ replicas: 0, waitaof: true, runId: "" });
  });
});

describe("/readyz on a Sentinel deployment", () => {
  it("reports the primary's min-replicas-to-write and warns while it is 0", { timeout: 90_000 }, async () => {
    sentinel = await startPrivateRedisSentinel();
    h = await startHarness({ redisUrl: sentinel.url });
    const w = await h.worker({ healthPort: 0 });
    const readyz = async () => {
      const res = await fetch(`http://127.0.0.1:${w.healthPort}/readyz`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const first = await until(
      async () => {
        const r = await readyz();
        return (r.body.replication as { minReplicasToWrite?: unknown })?.minReplicasToWrite === 0 && r;
      },
      10_000,
      "the replication settings read",
    );
    // A warning, not a refusal: the same setting would take every process of the app out of service.
    expect(first.status).toBe(200);
    expect(first.body.replication).toEqual({
      minReplicasToWrite: 0,
      minReplicasMaxLag: 10,
      warning: MIN_REPLICAS_WARNING,
    });
    expect(first.body.writes).toMatchObject({ mode: "auto" });

    const primary = connectRedis(`redis://127.0.0.1:${sentinel.primaryPort()}`, silentLogger());
    conns.push(primary);
    await primary.config("SET", "min-replicas-to-write", "1");
    expect(await readReplicationSettings(primary)).toEqual({ minReplicasToWrite: 1, minReplicasMaxLag: 10 });
  });

  it("writes count as confirmed only on the server a majority of the sentinels name as the primary", {
    timeout: 90_000,
  }, async () => {
    sentinel = await startPrivateRedisSentinel();
    const watch = sentinelWatch(sentinel.url, silentLogger());
    cleanupWatch = () => watch.close();
    const primaryPort = sentinel.primaryPort();
    const replicaPort = sentinel.serverPorts.find((p) => p !== primaryPort) as number;
    const on = (port: number) => {
      const c = connectRedis(`redis://127.0.0.1:${port}`, silentLogger());
      conns.push(c);
      return createWriteConfirmer({
        redis: c,
        mode: "auto",
        sentinelView: watch.view,
        logger: silentLogger(),
      });
    };
    // Sentinel learns the replica's link state from INFO every 10 s at most.
    const view = await until(
      async () => {
        const v = await watch.view();
        return v && v.replicas === 1 && v;
      },
      30_000,
      "the sentinels see the replica healthy",
    );
    expect(view.primaryRunId).toMatch(/^[0-9a-f]{40}$/);
    expect(await on(primaryPort).confirm()).toBe(true);
    // A connection that reaches another server than the one the sentinels name (a primary cut off
    // from them, or one already demoted) gets no confirmation, whatever that server says of itself.
    expect(await on(replicaPort).confirm()).toBe(false);
  });
});
