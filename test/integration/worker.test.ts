import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import type { DeliveryResult } from "../../src/jobs/deliver.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { schedulerIdFor } from "../../src/subscriptions/ids.ts";
import { type Harness, OWNER, REF, sleep, startHarness, until } from "./worker-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const daily = (channelId: string) => ({ channelId, schedule: { kind: "daily" as const }, tz: "UTC" });

describe("scheduled delivery end to end", () => {
  it("a real job scheduler fires and the digest, with its chart, reaches the channel once per run", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    // Every second on purpose; Slack's 1 post/s/channel would make the runs race each other.
    h.slack.setRateLimit({ enabled: false });
    const { subscriptions } = h.producer();
    await h.worker();
    const { subscription: sub } = await subscriptions.create(
      REF,
      {
        channelId: DEMO.general,
        schedule: { kind: "cron", expression: "* * * * * *" },
        tz: "UTC",
        range: "last14d",
      },
      OWNER,
    );
    await until(() => h.slack.messages(DEMO.general).length >= 2, 10_000, "two scheduled digests");
    await subscriptions.remove(REF, sub.id);
    await sleep(1_200);
    const messages = h.slack.messages(DEMO.general);
    const posts = h.slack.calls(
      (c) => c.method === "chat.postMessage" && c.ok && c.args.channel === DEMO.general,
    );
    expect(posts).toHaveLength(messages.length);
    const deliveries = posts.map(
      (c) => c.args.metadata as { event_type: string; event_payload: { delivery: string } },
    );
    expect(deliveries.every((m) => m.event_type === DIGEST_EVENT_TYPE)).toBe(true);
    // One post per fire time: every delivery id (subscription/period) is distinct.
    expect(new Set(deliveries.map((m) => m.event_payload.delivery)).size).toBe(posts.length);
    for (const m of messages) {
      expect(m.text).toMatch(/^Insights /);
      const blocks = m.blocks as {
        type: string;
        slack_file?: { id: string };
        elements?: { text?: string }[];
      }[];
      expect(blocks[0]?.type).toBe("header");
      const image = blocks.find((b) => b.type === "image");
      const file = h.slack.files().find((f) => f.id === image?.slack_file?.id);
      expect(file).toMatchObject({ completed: true, contentType: "image/png" });
      expect(JSON.stringify(blocks)).toContain("Scheduled digest · Cron * * * * * * UTC");
    }
    expect(
      await h.redis.exists(`${h.config.queuePrefix}:${h.queueName}:repeat:${schedulerIdFor(REF, sub.id)}`),
    ).toBe(0);
  });

  // Every interleaving must end in one post; which one happens is up to the machine. The claim lease
  // (15 s) outlasts any delivery here, loaded or not, so the duplicates can only find the run done:
  // a second post or a second "delivered" fails this test whenever it happens, not by chance.
  it("two workers and duplicated jobs for one period post once", { timeout: 60_000 }, async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions, scheduler, queue } = h.producer();
    const steady = { claims: { leaseMs: 15_000 } };
    const workers = [await h.worker(steady), await h.worker(steady)];
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.security), OWNER);
    h.emulator.inject({ kind: "latency", ms: 600 }, 2);
    const period = "20261102T080000Z";
    const data = { sub: schedulerIdFor(REF, sub.id), period };
    await Promise.all([
      queue.add("catchup", data, { jobId: "dup-a" }),
      queue.add("catchup", data, { jobId: "dup-b" }),
      queue.add("catchup", data, { jobId: "dup-c" }),
    ]);
    // Two more copies of the run through the service's own path (as catch-ups would be).
    await scheduler.enqueue(REF, sub.id, "catchUp", period);
    await scheduler.enqueue(REF, sub.id, "catchUp", period);
    const dups = async () => (await queue.getJobs(["completed"])).filter((j) => j.name === "catchup").length;
    await until(async () => (await dups()) === 5, 40_000, "all jobs completed").catch(async (err: Error) => {
      const counts = await queue.getJobCounts(
        "completed",
        "delayed",
        "waiting",
        "active",
        "failed",
        "prioritized",
      );
      const delayed = (await queue.getJobs(["delayed", "waiting", "active"])).map((j) => ({
        id: j.id,
        name: j.name,
        delay: j.delay,
        timestamp: j.timestamp,
        processedOn: j.processedOn,
        attemptsMade: j.attemptsMade,
        stalled: j.stalledCounter,
      }));
      throw new Error(
        `${err.message}: ${JSON.stringify(counts)} claims ${JSON.stringify(await h.claims())} jobs ${JSON.stringify(delayed)} now ${Date.now()}`,
      );
    });
    const results = (await queue.getJobs(["completed"]))
      .filter((j) => j.name === "catchup")
      .map((j) => j.returnvalue as DeliveryResult);
    expect(results.filter((r) => r.status === "delivered")).toHaveLength(1);
    expect(results.filter((r) => r.status === "skipped" && r.why === "already_done")).toHaveLength(4);
    expect(h.slack.messages(DEMO.security)).toHaveLength(1);
    expect((await subscriptions.get(REF, sub.id))?.lastDelivery).toMatchObject({
      period,
      outcome: "delivered",
    });
    expect(workers.every((w) => w.worker.isRunning())).toBe(true);
  });

  it("after a Slack 429 nothing is posted to the channel before Retry-After has passed", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    await h.worker();
    const a = (await subscriptions.create(REF, daily(DEMO.general), OWNER)).subscription;
    const b = (await subscriptions.create(REF, { ...daily(DEMO.general), range: "last30d" }, OWNER))
      .subscription;
    h.slack.injectHttp("chat.postMessage", 429, { retryAfter: 2, times: 1 });
    await subscriptions.sendNow(REF, a.id);
    await until(() => h.slack.calls({ method: "chat.postMessage" }).length > 0, 10_000, "the first post");
    // The queue is paused for Retry-After (BullMQ's limiter key); a job enqueued now must wait too.
    await until(
      () => h.redis.exists(`${h.config.queuePrefix}:${h.queueName}:limiter`),
      2_000,
      "the rate limit",
    );
    await subscriptions.sendNow(REF, b.id);
    await until(() => h.slack.messages(DEMO.general).length === 2, 15_000, "both digests");
    const posts = h.slack.calls((c) => c.method === "chat.postMessage" && c.args.channel === DEMO.general);
    const limited = posts[0];
    expect(limited).toMatchObject({ status: 429 });
    const after = posts.slice(1);
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const c of after) expect(c.at - (limited?.at ?? 0)).toBeGreaterThanOrEqual(1_990);
    expect(h.slack.messages(DEMO.general)).toHaveLength(2);
  });

  it("health endpoints answer; close() finishes the job in flight, then readiness and the port go away", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ ok: true, redis: "up" });
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.emulator.inject({ kind: "latency", ms: 800 }, 1);
    await subscriptions.sendNow(REF, sub.id);
    await until(
      async () => Object.values(await h.claims()).some((v) => v.startsWith("p|")),
      5_000,
      "a delivery in flight",
    );
    await w.close();
    // close() returned only after the in-flight delivery finished.
    expect(h.slack.messages(DEMO.general)).toHaveLength(1);
    expect(w.worker.isRunning()).toBe(false);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it("/metrics counts the delivery and times its Slack and analytics calls", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    await subscriptions.sendNow(REF, sub.id);
    await until(() => h.slack.messages(DEMO.general).length === 1, 10_000, "the digest");
    await until(
      async () => (await (await fetch(`${base}/metrics`)).text()).includes('outcome="delivered"'),
      5_000,
      "the delivery in the metrics",
    );
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toContain('insights_digests_total{surface="scheduled",outcome="delivered",reason=""} 1');
    expect(metrics).toMatch(
      /insights_slack_request_seconds_count\{method="chat.postMessage",outcome="ok"\} 1/,
    );
    expect(metrics).toMatch(
      /insights_analytics_request_seconds_count\{operation="insights",outcome="ok"\} [1-9]/,
    );
    expect(metrics).not.toContain(sub.id);
  });

  it("a takeover after a crash between post and record finds the earlier post and does not post again", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions, queue } = h.producer();
    await h.worker();
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.security), OWNER);
    const period = "20261102T080000Z";
    // What a worker leaves behind when it dies right after Slack accepted its post: the posting
    // marker, the message in the channel, and no finished claim.
    const claims = createDeliveryClaims({ redis: h.redis, keys: createKeyScheme({ prefix: h.prefix }) });
    await claims.markPosting(REF, sub.id, period);
    const earlier = await new WebClient(DEMO.botToken, { slackApiUrl: h.slack.apiUrl }).chat.postMessage({
      channel: DEMO.security,
      text: "the digest the dead worker posted",
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { delivery: `${sub.id}/${period}` } },
    });
    await queue.add("catchup", { sub: schedulerIdFor(REF, sub.id), period }, { jobId: "takeover" });
    const saved = await until(
      async () => {
        const s = await subscriptions.get(REF, sub.id);
        return s?.lastDelivery?.period === period ? s : undefined;
      },
      10_000,
      "the delivery recorded",
    );
    expect(saved.lastDelivery).toMatchObject({ outcome: "delivered", messageTs: earlier.ts });
    expect(h.slack.messages(DEMO.security)).toHaveLength(1);
    expect(h.slack.calls({ method: "conversations.history" }).length).toBeGreaterThan(0);
  });
});
