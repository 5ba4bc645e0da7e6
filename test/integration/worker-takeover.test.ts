import { type ChildProcess, spawn } from "node:child_process";
import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { backends } from "../setup/backends.ts";
import { productCli } from "../setup/product-build.ts";
import { ROOT } from "./cli-run.ts";
import { startSlackProxy } from "./slack-proxy.ts";
import { deliveryRecorded, type Harness, OWNER, REF, sleep, startHarness, until } from "./worker-harness.ts";

/**
 * The takeover's paths the kill test does not reach: a thread's reply looked for among the thread's
 * replies, a thread that is gone, the give-up after six hours of not knowing; and a worker whose
 * Redis died stopping within SHUTDOWN_TIMEOUT_MS.
 */
let h: Harness | undefined;
let privateRedis: PrivateRedis | undefined;
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await h?.close();
  await privateRedis?.destroy();
  h = undefined;
  privateRedis = undefined;
});

const PERIOD = "20261102T080000Z";
const jobSub = (id: string) => `${workspaceLabel(REF)}.${id}`;

/**
 * What a worker leaves behind when it dies right after Slack accepted its post: the claim noted
 * "posting", its lease run out. Returns a Slack client to post what the dead worker posted.
 */
async function deadWorkerClaim(harness: Harness, subId: string) {
  const claims = createDeliveryClaims({
    redis: harness.redis,
    keys: createKeyScheme({ prefix: harness.prefix }),
    leaseMs: 100,
  });
  const dead = await claims.claim(REF, subId, PERIOD);
  if (dead.state !== "acquired") throw new Error(`claim: ${dead.state}`);
  expect(await claims.confirm(REF, subId, PERIOD, dead.token)).toBe(true);
  await sleep(150);
}

const metadata = (subId: string) => ({
  event_type: DIGEST_EVENT_TYPE,
  event_payload: { delivery: `${subId}/${PERIOD}` },
});

/** A thread-style subscription whose first run posted `topTs`, the message later runs reply under. */
async function threadSubscription(
  harness: Harness,
  slack: WebClient,
): Promise<{ sub: Subscription; topTs: string }> {
  const { subscriptions } = harness.producer();
  const { subscription: sub } = await subscriptions.create(
    REF,
    { channelId: DEMO.security, schedule: { kind: "daily" }, tz: "UTC", style: "thread", drivers: false },
    OWNER,
  );
  const top = await slack.chat.postMessage({
    channel: DEMO.security,
    text: "Insights: the thread's first digest",
  });
  await harness.redis.hset(createKeyScheme({ prefix: harness.prefix }).subscription(REF, sub.id), {
    mk: "t",
    mt: top.ts as string,
  });
  return { sub, topTs: top.ts as string };
}

describe.each(backends())("takeover of a threaded run ($name)", ({ url }) => {
  it("finds the dead worker's reply among the thread's replies (conversations.replies) and does not reply again", async () => {
    h = await startHarness({ redisUrl: url });
    const slack = new WebClient(DEMO.botToken, { slackApiUrl: h.slack.apiUrl });
    h.slack.setRateLimit({ enabled: false });
    const { sub, topTs } = await threadSubscription(h, slack);
    await h.worker();
    await deadWorkerClaim(h, sub.id);
    const reply = await slack.chat.postMessage({
      channel: DEMO.security,
      thread_ts: topTs,
      text: "the reply the dead worker posted",
      metadata: metadata(sub.id),
    });
    await h
      .producer()
      .queue.add("catchup", { sub: jobSub(sub.id), period: PERIOD, ch: DEMO.security }, { jobId: "t1" });

    const saved = await deliveryRecorded(h.producer().subscriptions, sub.id, PERIOD, 15_000);
    expect(saved.lastDelivery).toMatchObject({ outcome: "delivered", messageTs: reply.ts });
    // Still one reply, and the thread goes on under the same top message.
    expect(h.slack.messages(DEMO.security).filter((m) => m.threadTs === topTs)).toHaveLength(1);
    expect(saved.runs?.message).toEqual({ key: "t", ts: topTs });
    const reads = h.slack.calls({ method: "conversations.replies" });
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => c.args.ts === topTs && Number(c.args.limit) <= 15)).toBe(true);
    expect(h.slack.calls({ method: "conversations.history" })).toEqual([]);
  });

  it("a thread whose top message is gone (thread_not_found) holds no reply: the run posts a new top message, and later runs follow it", async () => {
    h = await startHarness({ redisUrl: url });
    const slack = new WebClient(DEMO.botToken, { slackApiUrl: h.slack.apiUrl });
    h.slack.setRateLimit({ enabled: false });
    const { sub, topTs } = await threadSubscription(h, slack);
    await slack.chat.delete({ channel: DEMO.security, ts: topTs });
    await h.worker();
    await deadWorkerClaim(h, sub.id);
    await h
      .producer()
      .queue.add("catchup", { sub: jobSub(sub.id), period: PERIOD, ch: DEMO.security }, { jobId: "t2" });

    const saved = await deliveryRecorded(h.producer().subscriptions, sub.id, PERIOD, 15_000);
    const digests = h.slack
      .messages(DEMO.security)
      .filter((m) => m.metadata?.event_type === DIGEST_EVENT_TYPE);
    expect(digests).toHaveLength(1);
    expect(digests[0]?.threadTs).toBeUndefined();
    expect(saved.lastDelivery).toMatchObject({ outcome: "delivered", messageTs: digests[0]?.ts });
    expect(saved.runs?.message).toEqual({ key: "t", ts: digests[0]?.ts });
    expect(h.slack.calls({ method: "conversations.replies" }).map((c) => c.error)).toContain(
      "thread_not_found",
    );
  });
});

describe("a takeover that cannot tell", () => {
  it("gives the period up as unverifiable once its job is six hours old, never posting; a younger one waits and asks again", {
    timeout: 60_000,
  }, async () => {
    h = await startHarness({ redisUrl: backends()[0]?.url as string });
    const harness = h;
    // Slack answers every history read with 429: whether the dead worker's post went out stays unknown.
    const proxy = await startSlackProxy(harness.slack.apiUrl);
    cleanups.push(() => proxy.close());
    proxy.rule = (method) => (method === "conversations.history" ? { status: 429, retryAfter: 30 } : "pass");
    const { subscriptions, queue } = harness.producer();
    const daily = { schedule: { kind: "daily" as const }, tz: "UTC", drivers: false };
    const old = (await subscriptions.create(REF, { channelId: DEMO.general, ...daily }, OWNER)).subscription;
    const young = (await subscriptions.create(REF, { channelId: DEMO.security, ...daily }, OWNER))
      .subscription;
    await deadWorkerClaim(harness, old.id);
    await deadWorkerClaim(harness, young.id);
    // The production default: no takeoverGiveUpMs given.
    await harness.worker({ slackApiUrl: proxy.apiUrl });
    const hour = 3_600_000;
    // Jobs added as they were when their period fell due, six hours and a minute ago and 5 h 50 min ago.
    await queue.add(
      "catchup",
      { sub: jobSub(old.id), period: PERIOD, ch: DEMO.general },
      {
        jobId: "old",
        timestamp: Date.now() - 6 * hour - 60_000,
      },
    );
    await queue.add(
      "catchup",
      { sub: jobSub(young.id), period: PERIOD, ch: DEMO.security },
      {
        jobId: "young",
        timestamp: Date.now() - 6 * hour + 10 * 60_000,
      },
    );

    const gaveUp = await deliveryRecorded(subscriptions, old.id, PERIOD, 15_000);
    expect(gaveUp.lastDelivery).toMatchObject({ outcome: "failed", reason: "unverifiable" });
    // The younger one was put back to ask again later, with nothing recorded and nothing posted.
    await until(
      async () => (await (await queue.getJob("young"))?.getState()) === "delayed",
      15_000,
      "young delayed",
    );
    expect((await subscriptions.get(REF, young.id))?.lastDelivery).toBeUndefined();
    expect(harness.slack.calls({ method: "chat.postMessage" })).toEqual([]);
  });
});

describe("stopping after Redis died", () => {
  it("close() drops the connections SHUTDOWN_TIMEOUT_MS after the stop instead of waiting for Redis for ever", {
    timeout: 60_000,
  }, async () => {
    privateRedis = await startPrivateRedis();
    h = await startHarness({ redisUrl: privateRedis.url });
    const worker = await h.worker({ shutdownMs: 2_000 });
    await privateRedis.stop("SIGKILL");
    const t0 = Date.now();
    await expect(worker.close()).rejects.toMatchObject({ code: "shutdown_timeout" });
    // Two seconds, plus at most one for the connections to drop (and a loaded machine's slack: what
    // this guards against is a close that never returns).
    expect(Date.now() - t0).toBeGreaterThanOrEqual(2_000);
    expect(Date.now() - t0).toBeLessThan(8_000);
  });

  it("the worker command exits 1 within SHUTDOWN_TIMEOUT_MS of SIGTERM when Redis is gone", {
    timeout: 90_000,
  }, async () => {
    privateRedis = await startPrivateRedis();
    h = await startHarness({ redisUrl: privateRedis.url, prefix: "insights", queueName: "deliveries" });
    const product = productCli(["worker"]);
    const child: ChildProcess = spawn(process.execPath, product.argv, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        ...product.env,
        ...h.env,
        HEALTH_PORT: "0",
        LOG_LEVEL: "info",
        SHUTDOWN_TIMEOUT_MS: "3000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    cleanups.push(() => child.exitCode === null && child.kill("SIGKILL"));
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
    });
    child.stderr?.resume();
    await until(() => out.includes('"msg":"worker started"'), 60_000, "the worker started");
    await privateRedis.stop("SIGKILL");
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once("exit", (code) => resolve({ code, at: Date.now() })),
    );
    const t0 = Date.now();
    child.kill("SIGTERM");
    const { code, at } = await exited;
    expect(code).toBe(1);
    // 3 s, a second for the connections, a second for the process to go, and a loaded machine's
    // slack: before the bound, the process never exited.
    expect(at - t0).toBeGreaterThanOrEqual(3_000);
    expect(at - t0).toBeLessThan(15_000);
    expect(out).toContain("Stopped without finishing");
  });
});
