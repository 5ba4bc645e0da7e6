import { WebClient } from "@slack/web-api";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { createDeliveryClaims } from "../../src/jobs/claims.ts";
import type { DeliveryResult } from "../../src/jobs/deliver.ts";
import { DIGEST_EVENT_TYPE } from "../../src/jobs/digest-post.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import { backends } from "../setup/backends.ts";
import { startSlackProxy } from "./slack-proxy.ts";
import { deliveryRecorded, type Harness, OWNER, REF, sleep, startHarness, until } from "./worker-harness.ts";

let h: Harness | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await h?.close();
  h = undefined;
});

const daily = (channelId: string) => ({ channelId, schedule: { kind: "daily" as const }, tz: "UTC" });
const subId = (ref: typeof REF, id: string) => `${workspaceLabel(ref)}.${id}`;

describe.each(backends())("scheduled delivery end to end ($name)", ({ url }) => {
  it("a slot's scheduler fires, fans out, and each member's digest, with its chart, reaches its channel once per run", async () => {
    h = await startHarness({ redisUrl: url });
    // Every second on purpose; Slack's 1 post/s/channel would make the runs race each other.
    h.slack.setRateLimit({ enabled: false });
    const { subscriptions, queue } = h.producer();
    await h.worker({ pacing: { channelPosts: { points: 100, durationSec: 1 } } });
    const every = {
      schedule: { kind: "cron" as const, expression: "* * * * * *" },
      tz: "UTC",
      range: "last14d",
    };
    const a = (await subscriptions.create(REF, { ...every, channelId: DEMO.general }, OWNER)).subscription;
    const b = (await subscriptions.create(REF, { ...every, channelId: DEMO.security }, OWNER)).subscription;
    const slot = slotOf(a)?.id ?? "";
    expect(slotOf(b)?.id).toBe(slot);
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([slotSchedulerId(slot)]);
    const h1 = h;
    await until(
      () => h1.slack.messages(DEMO.general).length >= 2 && h1.slack.messages(DEMO.security).length >= 2,
      15_000,
      "two scheduled digests in each channel",
    );
    await subscriptions.remove(REF, a.id);
    await subscriptions.remove(REF, b.id);
    await sleep(1_200);
    for (const channel of [DEMO.general, DEMO.security]) {
      const messages = h.slack.messages(channel);
      const posts = h.slack.calls(
        (c) => c.method === "chat.postMessage" && c.ok && c.args.channel === channel,
      );
      expect(posts).toHaveLength(messages.length);
      const deliveries = posts.map(
        (c) => c.args.metadata as { event_type: string; event_payload: { delivery: string } },
      );
      expect(deliveries.every((m) => m.event_type === DIGEST_EVENT_TYPE)).toBe(true);
      // One post per fire time: every delivery id (subscription/period) is distinct.
      expect(new Set(deliveries.map((m) => m.event_payload.delivery)).size).toBe(posts.length);
      for (const m of messages) {
        const blocks = m.blocks as { type: string }[];
        expect(blocks[0]?.type).toBe("header");
        // The chart is one Slack draws: no file behind it.
        expect(blocks.some((x) => x.type === "data_visualization")).toBe(true);
        expect(JSON.stringify(blocks)).toContain("Scheduled digest · Cron * * * * * * UTC");
      }
    }
    // The two members of one fire share its period: the fan-out gave them the slot's fire time.
    const periods = (channel: string) =>
      h1.slack
        .calls((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === channel)
        .map(
          (c) =>
            (c.args.metadata as { event_payload: { delivery: string } }).event_payload.delivery.split("/")[1],
        );
    expect(periods(DEMO.general).some((p) => periods(DEMO.security).includes(p))).toBe(true);
    // The emptied slot's scheduler is gone, and finished jobs are not kept.
    expect(await queue.getJobSchedulers()).toEqual([]);
    expect(await queue.getCompletedCount()).toBe(0);
  });

  it("two workers and duplicated jobs for one period post once", async () => {
    h = await startHarness({ redisUrl: url });
    const { subscriptions, scheduler, queue } = h.producer();
    const steady = { claims: { leaseMs: 15_000 } };
    const workers = [await h.worker(steady), await h.worker(steady)];
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.security), OWNER);
    h.emulator.inject({ kind: "latency", ms: 600 }, 2);
    const period = "20261102T080000Z";
    const data = { sub: subId(REF, sub.id), period, ch: DEMO.security };
    const results: DeliveryResult[] = [];
    const done = new Promise<void>((resolve) => {
      for (const w of workers)
        w.worker.on("completed", (_job, r) => {
          results.push(r);
          if (results.length === 5) resolve();
        });
    });
    await Promise.all([
      queue.add("catchup", data, { jobId: "dup-a" }),
      queue.add("catchup", data, { jobId: "dup-b" }),
      queue.add("catchup", data, { jobId: "dup-c" }),
    ]);
    // Two more copies of the run through the service's own path (as catch-ups would be).
    await scheduler.enqueue(REF, sub.id, DEMO.security, "catchUp", period);
    await scheduler.enqueue(REF, sub.id, DEMO.security, "catchUp", period);
    await done;
    expect(results.filter((r) => r.status === "delivered")).toHaveLength(1);
    expect(results.filter((r) => r.status === "skipped" && r.why === "already_done")).toHaveLength(4);
    expect(h.slack.messages(DEMO.security)).toHaveLength(1);
    expect((await subscriptions.get(REF, sub.id))?.lastDelivery).toMatchObject({
      period,
      outcome: "delivered",
    });
  });

  it("a Slack 429 in one workspace delays only that workspace: the other's digests go out meanwhile", async () => {
    h = await startHarness({ redisUrl: url });
    const other = await h.addWorkspace("T0OTHER01", 3);
    const proxy = await startSlackProxy(h.slack.apiUrl);
    closers.push(() => proxy.close());
    let limited = 0;
    // Slack throttles the demo workspace: its next post answers 429 with Retry-After 5 s.
    proxy.rule = (method, token) => {
      if (method !== "chat.postMessage" || token !== DEMO.botToken || limited > 0) return "pass";
      limited++;
      return { status: 429, retryAfter: 5 };
    };
    const { subscriptions } = h.producer();
    await h.worker({ slackApiUrl: proxy.apiUrl });
    const mine = (await subscriptions.create(REF, daily(DEMO.general), OWNER)).subscription;
    const theirs = [];
    for (const channelId of other.channels)
      theirs.push((await subscriptions.create(other.ref, daily(channelId), OWNER)).subscription);
    const t0 = Date.now();
    await subscriptions.sendNow(REF, mine.id);
    const h1 = h;
    // Bounds here are for a loaded machine; what the test asserts is the order of the posts, not
    // their times.
    await until(() => limited >= 1, 20_000, "the first 429");
    const throttledAt = Date.now();
    for (const s of theirs) await subscriptions.sendNow(other.ref, s.id);
    await until(
      () => other.channels.every((c) => h1.slack.messages(c).length === 1),
      30_000,
      "the other workspace's digests",
    );
    await until(() => h1.slack.messages(DEMO.general).length === 1, 30_000, "the throttled digest");
    const mineAt =
      h.slack.calls((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === DEMO.general)[0]
        ?.at ?? 0;
    // The other workspace was not held back by the Retry-After (its digests all went out first), and
    // the throttled one waited it out.
    const theirsLast = Math.max(
      ...h.slack
        .calls(
          (c) => c.method === "chat.postMessage" && c.ok && other.channels.includes(String(c.args.channel)),
        )
        .map((c) => c.at),
    );
    expect(theirsLast).toBeLessThan(mineAt);
    expect(mineAt - throttledAt).toBeGreaterThanOrEqual(4_900);
    expect(limited).toBe(1);
    expect(
      h.slack.calls((c) => c.method === "chat.postMessage" && c.args.channel === DEMO.general),
    ).toHaveLength(1);
    expect(h.slack.messages(DEMO.general)).toHaveLength(1);
    expect(mineAt).toBeGreaterThan(t0);
  });

  it("a takeover after a crash between post and record finds the earlier post (non-Marketplace history) and does not post again", async () => {
    h = await startHarness({ redisUrl: url });
    const { subscriptions, queue } = h.producer();
    await h.worker();
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.security), OWNER);
    const period = "20261102T080000Z";
    // What a worker leaves behind when it dies right after Slack accepted its post: a claim noted
    // "posting" whose lease ran out, the message in the channel (older ones and later ones around it).
    const claims = createDeliveryClaims({
      redis: h.redis,
      keys: createKeyScheme({ prefix: h.prefix }),
      leaseMs: 100,
    });
    const dead = await claims.claim(REF, sub.id, period);
    if (dead.state !== "acquired") throw new Error("unreachable");
    const slack = new WebClient(DEMO.botToken, { slackApiUrl: h.slack.apiUrl });
    h.slack.setRateLimit({ enabled: false });
    for (let i = 0; i < 10; i++)
      await slack.chat.postMessage({ channel: DEMO.security, text: `before the claim ${i}` });
    // Older than the claim by more than the clock margin (1 s): outside the read.
    await sleep(1_100);
    expect(await claims.confirm(REF, sub.id, period, dead.token)).toBe(true);
    const earlier = await slack.chat.postMessage({
      channel: DEMO.security,
      text: "the digest the dead worker posted",
      metadata: { event_type: DIGEST_EVENT_TYPE, event_payload: { delivery: `${sub.id}/${period}` } },
    });
    // Later chatter: the read stops at claim time + 60 s, so it cannot grow without bound.
    for (let i = 0; i < 12; i++)
      await slack.chat.postMessage({ channel: DEMO.security, text: `chatter ${i}` });
    await sleep(150);
    await queue.add("catchup", { sub: subId(REF, sub.id), period, ch: DEMO.security }, { jobId: "takeover" });
    const h1 = h;
    const saved = await deliveryRecorded(subscriptions, sub.id, period, 10_000);
    expect(saved.lastDelivery).toMatchObject({ outcome: "delivered", messageTs: earlier.ts });
    expect(h1.slack.messages(DEMO.security).filter((m) => m.text?.startsWith("Insights"))).toHaveLength(0);
    const reads = h.slack.calls({ method: "conversations.history" });
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((c) => Number(c.args.limit) <= 15 && Number(c.args.oldest) > 0)).toBe(true);
  });
});

describe("the worker process", () => {
  it("health endpoints answer; close() finishes the job in flight, then readiness and the port go away", async () => {
    h = await startHarness({ redisUrl: backends()[0]?.url ?? "" });
    const { subscriptions } = h.producer();
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({
      ok: true,
      redis: "up",
      maxmemoryPolicy: "noeviction",
      writes: { mode: "auto", waiting: false, last: "none" },
    });
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.emulator.inject({ kind: "latency", ms: 800 }, 1);
    await subscriptions.sendNow(REF, sub.id);
    const h1 = h;
    await until(
      async () => Object.values(await h1.claims()).some((v) => v.startsWith("p|")),
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
    h = await startHarness({ redisUrl: backends()[0]?.url ?? "" });
    const { subscriptions } = h.producer();
    const w = await h.worker({ healthPort: 0 });
    const base = `http://127.0.0.1:${w.healthPort}`;
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    await subscriptions.sendNow(REF, sub.id);
    const h1 = h;
    await until(() => h1.slack.messages(DEMO.general).length === 1, 10_000, "the digest");
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
});
