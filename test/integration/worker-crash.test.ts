import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import type { WorkspaceRef } from "../../src/store/keys.ts";
import { newSubscriptionId } from "../../src/subscriptions/ids.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { Schedule, Subscription } from "../../src/subscriptions/types.ts";
import { backends } from "../setup/backends.ts";
import { productCli } from "../setup/product-build.ts";
import { exited, printed, spawnWorkerProcess } from "../setup/worker-process.ts";
import { startSlackProxy } from "./slack-proxy.ts";
import {
  CRASH,
  type Harness,
  OWNER,
  REF,
  sleep,
  startHarness,
  subscriptionRecord,
  TAKEOVER,
  until,
} from "./worker-harness.ts";

const ROOT = new URL("../../", import.meta.url);
let h: Harness | undefined;
let privateRedis: PrivateRedis | undefined;
const children: ChildProcess[] = [];

const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const c of cleanups.splice(0)) await c();
  await h?.close();
  h = undefined;
  await privateRedis?.destroy();
  privateRedis = undefined;
});

/** A worker in its own process, as `startWorker` runs it, with the harness's fast settings. */
async function spawnWorker(
  harness: Harness,
  concurrency: number,
  o: { slackApiUrl?: string; tokens?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<ChildProcess> {
  const child = spawnWorkerProcess(
    `const tokenFor = async (ref) => o.tokens[ref.teamId] ?? o.env.SLACK_BOT_TOKEN;
    await startWorker({ config: loadConfig("worker", o.env), logger: keptLogger("debug"), prefix: o.prefix, queueName: o.queueName, tokenFor, slackApiUrl: o.slackApiUrl, ...o.tuning });`,
    {
      env: { ...harness.env, WORKER_CONCURRENCY: String(concurrency), ...o.env },
      prefix: harness.prefix,
      queueName: harness.queueName,
      tuning: CRASH,
      tokens: o.tokens ?? {},
      slackApiUrl: o.slackApiUrl,
    },
  );
  children.push(child);
  // Its start is its own work (loading the app, the reconcile reads every subscription), which a
  // loaded machine stretches past 15 s; a child that fails to start exits, and that rejects at once.
  await printed(child, "ready", 120_000);
  return child;
}

const pending = async (harness: Harness) =>
  Object.values(await harness.claims()).filter((v) => v.startsWith("p|")).length;
const withoutOutcome = (subs: Subscription[]) => subs.map(({ lastDelivery: _l, ...rest }) => rest);

describe.each(backends())("worker killed mid-post, non-Marketplace history ($name)", ({ url }) => {
  it("200 deliveries whose posts reached Slack before the worker was SIGKILLed: all recorded, none posted twice", {
    // Catches a hang only: the set-up waits while posts keep arriving, the takeover has its own bound.
    timeout: 480_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    const n = 200;
    // One workspace per delivery: each takeover may read history once a minute (Slack's limit for
    // apps outside the Marketplace, which the stand-in enforces).
    const tokens: Record<string, string> = {};
    const subs: { ref: WorkspaceRef; id: string; channel: string }[] = [];
    const { store } = harness.producer();
    for (let i = 0; i < n; i++) {
      const ws = await harness.addWorkspace(`T0K${String(i).padStart(6, "0")}`, 1);
      tokens[ws.ref.teamId as string] = ws.token;
      // Without drivers: their breakdowns (some 30 queries a digest) would only slow the set-up down,
      // and on a loaded machine make the doomed worker's digests time out before they are posted.
      const sub = {
        ...subscriptionRecord(ws.ref, ws.channels[0] as string, { drivers: false }),
        id: newSubscriptionId(),
      };
      await store.insert(sub);
      subs.push({ ref: ws.ref, id: sub.id, channel: sub.channelId });
    }
    // Slack takes the posts but the worker never hears back: it is killed while waiting.
    const proxy = await startSlackProxy(harness.slack.apiUrl);
    cleanups.push(() => proxy.close());
    // Posts are held for good: Slack has them, the worker never hears back. A post unanswered for the
    // call's timeout (10 s) makes the worker look for it in the channel's history; on a loaded machine
    // the 200 posts take longer than that, so those reads are dropped before they reach Slack: this
    // worker must die knowing nothing, and leave each workspace's history budget (one read a minute
    // outside the Marketplace) to the worker that takes over.
    proxy.rule = (method) =>
      method === "chat.postMessage" ? "hold" : method === "conversations.history" ? "drop" : "pass";
    const doomed = await spawnWorker(harness, n, {
      slackApiUrl: proxy.apiUrl,
      tokens,
      // Text digests: 200 chart renders would only slow the set-up down. The emulator shares the
      // machine with 200 digests built at once; on a loaded machine its replies take longer than the
      // production deadline (4 s), and a digest without its data would never be posted.
      env: { CHARTS: "off", ANALYTICS_TIMEOUT_MS: "60000" },
    });
    const { queue } = harness.producer();
    const period = "20261102T080000Z";
    await queue.addBulk(
      subs.map((s) => ({
        name: "catchup",
        data: { sub: `-.${s.ref.teamId}.${s.id}`, period, ch: s.channel },
        opts: { jobId: `kill.${s.id}`, attempts: 3, backoff: { type: "exponential", delay: 100 } },
      })),
    );
    const posted = () => subs.filter((s) => harness.slack.messages(s.channel).length > 0).length;
    // The set-up goes at the machine's pace (200 digests on two shared cores): wait while posts keep
    // arriving, and fail once none has arrived for 30 s.
    const started = Date.now();
    let seen = { count: 0, at: Date.now() };
    await until(
      () => {
        const count = posted();
        if (count !== seen.count) seen = { count, at: Date.now() };
        else if (Date.now() - seen.at > 30_000)
          throw new Error(`no post reached Slack for 30 s: ${count} of ${n} posted`);
        return count === n;
      },
      240_000,
      "every post in Slack",
      250,
    );
    const postedSec = (Date.now() - started) / 1000;
    doomed.kill("SIGKILL");
    expect(await exited(doomed)).toMatchObject({ signal: "SIGKILL" });
    const recordedOutcomes = async () => {
      const out: string[] = [];
      for (const s of subs) {
        const last = (await store.get(s.ref, s.id))?.lastDelivery;
        if (last?.period === period) out.push(`${last.outcome}${last.reason ? `:${last.reason}` : ""}`);
      }
      return out;
    };
    const recorded = async () => (await recordedOutcomes()).length;
    // Nothing recorded by the doomed worker; if something is, the failure names what it recorded.
    expect(await recordedOutcomes()).toEqual([]);

    await harness.worker({
      slackApiUrl: harness.slack.apiUrl,
      locks: TAKEOVER.locks,
    });
    // A doomed worker that already tried a history read used its workspace's budget (one a minute
    // outside the Marketplace), so the takeover may wait a minute for it before it can look.
    const killedAt = Date.now();
    await until(
      async () => (await recorded()) === n,
      180_000,
      "every delivery recorded after the takeover",
      // 200 records read per look: a gentle pace leaves the machine to the worker taking over.
      500,
    ).catch(async (err) => {
      // Which deliveries are missing, and what their jobs say (state, stalls, failure).
      const missing: string[] = [];
      for (const s of subs) {
        if ((await store.get(s.ref, s.id))?.lastDelivery?.period === period) continue;
        const job = await queue.getJob(`kill.${s.id}`);
        missing.push(
          job
            ? `${s.id}: ${await job.getState()}, ${job.stalledCounter} stalls, ${job.attemptsMade} attempts ${job.failedReason ?? ""}`
            : `${s.id}: no job`,
        );
      }
      throw new Error(
        `${(err as Error).message}; missing ${missing.length}: ${missing.slice(0, 20).join("; ")}`,
      );
    });
    const recordedAt = Date.now();
    await sleep(1_000);
    const counts = subs.map((s) => harness.slack.messages(s.channel).length);
    const duplicates = counts.reduce((t, c) => t + Math.max(0, c - 1), 0);
    const lost = counts.filter((c) => c === 0).length;
    const reads = harness.slack.calls({ method: "conversations.history" });
    console.info(
      `[kill] ${n} posts in Slack when the worker died (${postedSec.toFixed(0)} s after the jobs were added): ${duplicates} duplicates, ${lost} lost, all recorded ${((recordedAt - killedAt) / 1000).toFixed(0)} s after the kill, ${reads.length} history reads (${reads.filter((r) => r.status === 429).length} answered 429)`,
    );
    expect({ duplicates, lost }).toEqual({ duplicates: 0, lost: 0 });
    for (const s of subs)
      expect((await store.get(s.ref, s.id))?.lastDelivery).toMatchObject({
        outcome: "delivered",
        messageTs: harness.slack.messages(s.channel)[0]?.ts,
      });
    expect(reads.every((r) => Number(r.args.limit) <= 15)).toBe(true);
  });
});

describe("crashes", () => {
  it("Redis killed and restarted during a run (AOF): subscriptions and schedulers survive, the run is delivered once", async () => {
    privateRedis = await startPrivateRedis();
    h = await startHarness({ redisUrl: privateRedis.url });
    const harness = h;
    const { subscriptions, queue } = harness.producer();
    await harness.worker({ locks: TAKEOVER.locks, policy: { attempts: 5, backoffMs: 200 } });
    const create = async (channelId: string, schedule: Schedule, tz: string) =>
      (await subscriptions.create(REF, { channelId, schedule, tz }, OWNER)).subscription;
    const a = await create(DEMO.general, { kind: "daily" }, "UTC");
    const b = await create(DEMO.security, { kind: "weekly", days: ["mon", "fri"] }, "America/New_York");
    const c = await create(DEMO.security, { kind: "daily" }, "UTC");
    await subscriptions.pause(REF, c.id);
    const before = await subscriptions.list(REF);
    const schedulerIds = async () => (await queue.getJobSchedulers()).map((s) => s.key).sort();
    const schedulersBefore = await schedulerIds();
    expect(schedulersBefore).toEqual(
      [slotSchedulerId(slotOf(a)?.id ?? ""), slotSchedulerId(slotOf(b)?.id ?? "")].sort(),
    );

    harness.emulator.inject({ kind: "latency", ms: 1_800 }, 1);
    await subscriptions.sendNow(REF, a.id);
    await until(async () => (await pending(harness)) === 1, 5_000, "the delivery in flight");
    // appendfsync everysec: give the last writes their second to reach the disk, as a real crash would not wait.
    await sleep(1_100);
    await privateRedis.stop("SIGKILL");
    await privateRedis.restart();

    await until(
      () => harness.slack.messages(DEMO.general).length > 0,
      15_000,
      "the digest after the restart",
    );
    await sleep(500);
    expect(harness.slack.messages(DEMO.general)).toHaveLength(1);
    expect(withoutOutcome(await subscriptions.list(REF))).toEqual(withoutOutcome(before));
    expect(await schedulerIds()).toEqual(schedulersBefore);
    expect(await subscriptions.reconcile()).toMatchObject({
      active: 2,
      slots: 2,
      membersHealed: 0,
      schedulersEnsured: 0,
      schedulersRemoved: 0,
    });
  });
});

describe("the worker command", () => {
  // Two worker processes start and stop in turn, one behind 10 s analytics answers: 6 s alone, past
  // 30 s beside a full suite on a loaded 2-core machine (a worker process's start alone took over
  // 15 s there). The ceilings, the test's and its waits', only catch a hang.
  it("SIGTERM lets the delivery in flight finish, then exits 0; a second SIGTERM exits at once", {
    timeout: 120_000,
  }, async () => {
    privateRedis = await startPrivateRedis();
    // The CLI uses the default key prefix and queue name: fine on a Redis of its own.
    h = await startHarness({ redisUrl: privateRedis.url, prefix: "insights", queueName: "deliveries" });
    const harness = h;
    const { subscriptions } = harness.producer();
    const sub = (
      await subscriptions.create(
        REF,
        { channelId: DEMO.general, schedule: { kind: "daily" }, tz: "UTC" },
        OWNER,
      )
    ).subscription;
    const cli = () => {
      const product = productCli(["worker"]);
      const child = spawn(process.execPath, product.argv, {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? "",
          ...product.env,
          ...harness.env,
          HEALTH_PORT: "0",
          LOG_LEVEL: "info",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      // Drain the pipes so a chatty child never blocks on a full one.
      child.stdout?.resume();
      child.stderr?.resume();
      return child;
    };

    harness.emulator.inject({ kind: "latency", ms: 1_500 }, 1);
    const graceful = cli();
    await subscriptions.sendNow(REF, sub.id);
    await until(async () => (await pending(harness)) === 1, 60_000, "the delivery in flight");
    graceful.kill("SIGTERM");
    expect(await exited(graceful)).toEqual({ code: 0, signal: null });
    expect(harness.slack.messages(DEMO.general)).toHaveLength(1);

    // A digest the first run left nothing cached for (another range), and every analytics request slow:
    // the new process's first request is its introspection, then the digest's own. The same digest again
    // would come whole from the shared caches, asking nothing, and be done before anyone could stop it.
    const other = (
      await subscriptions.create(
        REF,
        { channelId: DEMO.general, schedule: { kind: "daily" }, tz: "UTC", range: "last30d" },
        OWNER,
      )
    ).subscription;
    harness.emulator.inject({ kind: "latency", ms: 10_000 }, 10);
    const impatient = cli();
    await subscriptions.sendNow(REF, other.id);
    await until(async () => (await pending(harness)) === 1, 60_000, "the second delivery in flight");
    const draining = printed(impatient, "finishing in-flight work");
    impatient.kill("SIGTERM");
    await draining;
    impatient.kill("SIGTERM");
    // 130 is the second signal's own exit (a clean stop exits 0, a failed one 1), and the delivery in
    // flight was not waited for: its digest never went out. (No bound on the seconds: on a loaded
    // machine the log line alone can take more than two.)
    expect(await exited(impatient)).toEqual({ code: 130, signal: null });
    expect(harness.slack.messages(DEMO.general)).toHaveLength(1);
  });
});
