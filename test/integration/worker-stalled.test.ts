import type { ChildProcess } from "node:child_process";
import { Worker } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { STALLED_OUT } from "../../src/jobs/stalled.ts";
import { workspaceLabel } from "../../src/store/keys.ts";
import { describeReason } from "../../src/subscriptions/reasons.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { backends, connect } from "../setup/backends.ts";
import { exited, printed, spawnWorkerProcess } from "../setup/worker-process.ts";
import { type SlackProxy, startSlackProxy } from "./slack-proxy.ts";
import {
  deliveryRecorded,
  FAST,
  type Harness,
  insertSubscription,
  REF,
  sleep,
  startHarness,
  TAKEOVER,
  until,
} from "./worker-harness.ts";

/**
 * A delivery BullMQ fails unrun because its lock ran out more than `maxStalledCount` times: every
 * worker that took it was killed mid-job (as an OOM kill or a starved, then restarted, process
 * would leave it). The stalls are real: worker processes are SIGKILLed while they hold the job, and
 * BullMQ's own stalled-job check (a BullMQ worker of the same queue that only checks, as every
 * worker process of a fleet does) moves the job back and counts. Nothing writes BullMQ's fields.
 */
let h: Harness | undefined;
const children: ChildProcess[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  for (const c of cleanups.splice(0).reverse()) await c();
  await h?.close();
  h = undefined;
});

const PERIOD = "20261102T080000Z";
// Our own history budget is counted in Redis: the killed workers' reads never reach Slack (the proxy
// drops them), so they must not use up the read the survivor needs. Slack's stand-in keeps its own
// limit of one read a minute, which the survivor's one read meets.
const PACING = { methods: { "conversations.history": { points: 10, durationSec: 60 } } };

/**
 * Worker processes to be killed while they hold the job, started at once (a start is seconds of
 * loading the app) and frozen (SIGSTOP) until their turn, so each takes the job only when told.
 * They never check for stalled jobs themselves: the checker below decides when a job has stalled.
 */
async function doomedWorkers(
  harness: Harness,
  n: number,
  o: { slackApiUrl: string; stallReadds?: number },
): Promise<ChildProcess[]> {
  const tuning = {
    ...FAST,
    locks: {
      lockDuration: 4_000,
      stalledInterval: 1_000,
      skipStalledCheck: true,
      stallReadds: o.stallReadds,
    },
    pacing: PACING,
  };
  const started = Array.from({ length: n }, () => {
    const child = spawnWorkerProcess(
      `await startWorker({ config: loadConfig("worker", o.env), logger: keptLogger("debug"), prefix: o.prefix, queueName: o.queueName, slackApiUrl: o.slackApiUrl, ...o.tuning });`,
      {
        // Slack and analytics calls wait as long as the test needs them to hang.
        env: {
          ...harness.env,
          WORKER_CONCURRENCY: "1",
          CHARTS: "off",
          // No request thread: these workers are killed holding a delivery, and never see a request.
          // Its start (a second module graph) would double each doomed worker's start-up CPU.
          INTERACTIVE_WORKER_THREADS: "0",
          SLACK_TIMEOUT_MS: "120000",
          ANALYTICS_TIMEOUT_MS: "120000",
        },
        prefix: harness.prefix,
        queueName: harness.queueName,
        tuning,
        slackApiUrl: o.slackApiUrl,
      },
    );
    children.push(child);
    return child;
  });
  await Promise.all(started.map((c) => printed(c, "ready", 120_000)));
  for (const c of started.slice(1)) c.kill("SIGSTOP");
  return started;
}

/** BullMQ's stalled-job check of the queue, with the fleet's limit, in a worker that runs no jobs. */
function stallChecker(harness: Harness, url: string, maxStalledCount: number) {
  const connection = connect(url);
  const checker = new Worker(harness.queueName, undefined, {
    connection,
    prefix: harness.config.queuePrefix,
    autorun: false,
    stalledInterval: 1_000,
    maxStalledCount,
  });
  checker.on("error", () => undefined);
  void checker.startStalledCheckTimer();
  cleanups.push(async () => {
    await checker.close();
    await connection.quit().catch(() => connection.disconnect());
  });
}

async function kill(child: ChildProcess) {
  child.kill("SIGKILL");
  expect(await exited(child)).toMatchObject({ signal: "SIGKILL" });
}

/** Adds the delivery of PERIOD as a slot's fan-out does (same id, options and data). */
async function addDelivery(harness: Harness, sub: Subscription) {
  const { queue } = harness.producer();
  const jobSub = `${workspaceLabel(REF)}.${sub.id}`;
  const id = `d.${jobSub}.${PERIOD}`;
  await queue.add(
    "digest",
    { sub: jobSub, period: PERIOD, ch: sub.channelId },
    { jobId: id, attempts: 3, backoff: { type: "exponential", delay: 100 }, priority: 1 },
  );
  return { queue, id };
}

const claimOf = async (harness: Harness, sub: Subscription) =>
  (await harness.claims())[`${PERIOD}/${sub.id}`] ?? "";

function proxyCounting(proxy: SlackProxy) {
  const seen = { history: 0 };
  proxy.rule = (method) => {
    if (method === "chat.postMessage") return "hold";
    if (method === "conversations.history") {
      seen.history++;
      return "drop";
    }
    return "pass";
  };
  return seen;
}

describe.each(backends())("deliveries BullMQ fails for stalling ($name)", ({ url }) => {
  it("posted, then stalled out: added again, found in the channel, delivered exactly once", {
    timeout: 300_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    const sub = await insertSubscription(harness, { drivers: false });
    const proxy = await startSlackProxy(harness.slack.apiUrl);
    cleanups.push(() => proxy.close());
    // Slack takes the first worker's post, which never hears back; the next ones' history reads hang.
    const seen = proxyCounting(proxy);
    const [d1, d2, d3] = (await doomedWorkers(harness, 3, { slackApiUrl: proxy.apiUrl })) as [
      ChildProcess,
      ChildProcess,
      ChildProcess,
    ];
    stallChecker(harness, url, 2);
    const { queue, id } = await addDelivery(harness, sub);

    await until(() => harness.slack.messages(sub.channelId).length === 1, 60_000, "the first post in Slack");
    await kill(d1);
    // Stall 1, then 2: each next worker takes the job over and dies looking for the post in history.
    d2.kill("SIGCONT");
    await until(() => seen.history >= 1, 60_000, "the second worker's history read");
    await kill(d2);
    d3.kill("SIGCONT");
    await until(() => seen.history >= 2, 60_000, "the third worker's history read");
    await kill(d3);
    // Stall 3 is past the limit (2): BullMQ fails the job unrun in the survivor, which adds it again.
    await harness.worker({ slackApiUrl: harness.slack.apiUrl, locks: TAKEOVER.locks, pacing: PACING });

    const recorded = (await deliveryRecorded(harness.producer().store, sub.id, PERIOD, 90_000)).lastDelivery;
    const original = await queue.getJob(id);
    expect({ state: await original?.getState(), reason: original?.failedReason }).toEqual({
      state: "failed",
      reason: STALLED_OUT,
    });
    await sleep(1_000);
    const messages = harness.slack.messages(sub.channelId);
    expect(messages).toHaveLength(1);
    expect(recorded).toMatchObject({ outcome: "delivered", messageTs: messages[0]?.ts });
    expect(await claimOf(harness, sub)).toBe(`d|${messages[0]?.ts}`);
    expect(harness.slack.calls({ method: "chat.postMessage" })).toHaveLength(1);
  });

  it("stalled out again after its re-add, past the bound: recorded failed with the reason, channel told", {
    timeout: 300_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    const sub = await insertSubscription(harness, { drivers: false });
    // Every worker that builds the digest hangs on the analytics service until it is killed.
    harness.emulator.inject({ kind: "latency", ms: 600_000 }, 100);
    const [d1, d2] = (await doomedWorkers(harness, 2, {
      slackApiUrl: harness.slack.apiUrl,
      stallReadds: 1,
    })) as [ChildProcess, ChildProcess];
    // A limit of 0: every stall fails the job, so two kills make two stall-outs.
    stallChecker(harness, url, 0);
    const { queue, id } = await addDelivery(harness, sub);

    const first = await until(
      async () => ((await claimOf(harness, sub)).startsWith("p|") ? claimOf(harness, sub) : undefined),
      60_000,
      "the first run's claim",
    );
    await kill(d1);
    // The second worker fails the stalled-out job unrun, adds it again (stall1) and hangs building it.
    d2.kill("SIGCONT");
    await until(
      async () => {
        const c = await claimOf(harness, sub);
        return c.startsWith("p|") && c.split("|")[1] !== first.split("|")[1];
      },
      60_000,
      "the re-added run's claim",
    );
    expect(await (await queue.getJob(`${id}.stall1`))?.getState()).toBe("active");
    await kill(d2);
    // The re-added job stalls out too; it was re-added once (the bound): the survivor records it.
    await harness.worker({
      slackApiUrl: harness.slack.apiUrl,
      locks: { ...TAKEOVER.locks, maxStalledCount: 0, stallReadds: 1 },
    });

    const recorded = (await deliveryRecorded(harness.producer().store, sub.id, PERIOD, 60_000)).lastDelivery;
    expect(recorded).toMatchObject({ outcome: "failed", reason: "stalled" });
    for (const jobId of [id, `${id}.stall1`]) {
      const job = await queue.getJob(jobId);
      expect({ jobId, state: await job?.getState(), reason: job?.failedReason }).toEqual({
        jobId,
        state: "failed",
        reason: STALLED_OUT,
      });
    }
    expect(await queue.getJob(`${id}.stall2`)).toBeUndefined();
    expect(await claimOf(harness, sub)).toBe("f|stalled");
    await until(() => harness.slack.messages(sub.channelId).length === 1, 10_000, "the failure notice");
    await sleep(500);
    const messages = harness.slack.messages(sub.channelId);
    expect(messages).toHaveLength(1);
    expect(messages[0]?.text).toContain(`could not be delivered because ${describeReason("stalled").what}`);
  });
});
