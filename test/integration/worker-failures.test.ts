import { afterEach, describe, expect, inject, it } from "vitest";
import { DEMO } from "../../sandbox/slack/index.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { previousRun } from "../../src/subscriptions/schedule.ts";
import {
  deliveryRecorded,
  type Harness,
  OWNER,
  OWNER_DM,
  REF,
  startHarness,
  until,
} from "./worker-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const daily = (channelId: string) => ({
  channelId,
  schedule: { kind: "daily" as const },
  time: "09:00",
  tz: "UTC",
});
/** The digest's numbers live in blocks; notices are text only. */
const isDigest = (m: { blocks: unknown[] | undefined }) => (m.blocks?.length ?? 0) > 0;

describe("permanent Slack errors", () => {
  it("archived channel: paused, owner told once over two runs; unarchive and resume: the missed run is delivered", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    // One instant for the whole test, so a 09:00 passing while it runs cannot move the missed run.
    const now = new Date();
    // Created two days ago, so the latest 09:00 run belongs to it.
    const { subscriptions, scheduler, queue } = h.producer(() => new Date(now.getTime() - 2 * 86_400_000));
    const live = h.producer(() => now);
    const w = await h.worker();
    // Finished jobs are not kept: count the notices as the worker finishes them.
    let notices = 0;
    w.worker.on("completed", (job) => {
      if (job.name === "notice") notices += 1;
    });
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.slack.setChannel(DEMO.general, { archived: true });
    const missed = periodOf(previousRun(sub.schedule, sub.time, sub.tz, now) as Date);

    // Run 1: the scheduled run for `missed` (enqueued as the scheduler would fire it).
    await scheduler.enqueue(REF, sub.id, sub.channelId, "catchUp", missed);
    await until(async () => (await subscriptions.get(REF, sub.id))?.status === "paused", 10_000, "the pause");
    // Run 2: a test send, which goes out even while paused, and fails the same way.
    await live.subscriptions.sendNow(REF, sub.id);
    await until(async () => (await queue.getFailedCount()) === 2, 20_000, "both runs to fail");
    // Each failed run queued a notice job; the owner's DM comes from those, after the runs failed.
    // Only once both have run can "told once" be checked.
    await until(() => notices === 2, 20_000, "both owner notices handled");

    const paused = await subscriptions.get(REF, sub.id);
    expect(paused).toMatchObject({
      status: "paused",
      pausedReason: "is_archived",
      ownerNotifiedReason: "is_archived",
    });
    expect(paused?.pausedAt).toBe(
      new Date(`${missed.slice(0, 4)}-${missed.slice(4, 6)}-${missed.slice(6, 8)}T09:00:00Z`).toISOString(),
    );
    expect(await queue.getJobScheduler(`-.${DEMO.teamId}.${sub.id}`)).toBeUndefined();
    const dms = h.slack.messages(OWNER_DM);
    expect(dms).toHaveLength(1);
    expect(dms[0]?.text).toContain("channel is archived");
    expect(dms[0]?.text).toContain(`/insights resume ${sub.id}`);
    expect(h.slack.messages(DEMO.general)).toHaveLength(0);

    h.slack.setChannel(DEMO.general, { archived: false });
    const resumed = await live.subscriptions.resume(REF, sub.id);
    expect(resumed.catchUpPeriod).toBe(missed);
    await until(() => h.slack.messages(DEMO.general).length === 1, 20_000, "the catch-up digest");
    expect(isDigest(h.slack.messages(DEMO.general)[0] as never)).toBe(true);
    // The worker records the delivery after Slack accepted the post: wait for the record, not the post.
    const after = await deliveryRecorded(subscriptions, sub.id, missed, 20_000);
    expect(after).toMatchObject({ status: "active", lastDelivery: { period: missed, outcome: "delivered" } });
    expect(after?.ownerNotifiedReason).toBeUndefined();
    expect(h.slack.messages(OWNER_DM)).toHaveLength(1);
  });

  it("a channel paused by an event gets its owner told once by a notice job", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    await h.worker();
    await subscriptions.create(REF, daily(DEMO.security), OWNER);
    await subscriptions.create(REF, { ...daily(DEMO.security), time: "17:00" }, OWNER);
    const paused = await subscriptions.pauseChannel(REF, DEMO.security, "bot_removed");
    expect(paused).toHaveLength(2);
    await until(() => h.slack.messages(OWNER_DM).length === 2, 10_000, "two DMs, one per subscription");
    expect(h.slack.messages(OWNER_DM).every((m) => m.text?.includes("removed from the channel"))).toBe(true);
    expect(await subscriptions.pauseChannel(REF, DEMO.security, "bot_removed")).toEqual([]);
  });
});

describe("analytics failures", () => {
  it("5xx twice, then fine: one digest after job retries, no notice", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions, queue } = h.producer();
    const w = await h.worker({ policy: { attempts: 4, backoffMs: 50 } });
    const completed = new Map<string, number>();
    w.worker.on("completed", (j) => completed.set(String(j.id), j.attemptsMade));
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.emulator.inject({ kind: "status", status: 503 }, 2);
    const { jobId } = await subscriptions.sendNow(REF, sub.id);
    await until(() => h.slack.messages(DEMO.general).length > 0, 10_000, "the digest");
    const job = { attemptsMade: await until(() => completed.get(jobId)) };
    // Completed jobs are not kept: the outcome lives on the record and the claim.
    expect(await queue.getJob(jobId)).toBeUndefined();
    // Two failed attempts and the successful third (BullMQ counts finished attempts).
    expect(job.attemptsMade).toBe(3);
    const messages = h.slack.messages(DEMO.general);
    expect(messages).toHaveLength(1);
    expect(isDigest(messages[0] as never)).toBe(true);
    expect(messages[0]?.text).toMatch(/^Insights /);
  });

  it("5xx every time: one failure notice after the last attempt, never a digest of zeros", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions, queue } = h.producer();
    const w = await h.worker();
    const completed = new Set<string>();
    w.worker.on("completed", (j) => completed.add(String(j.id)));
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.emulator.inject({ kind: "status", status: 503 }, 1_000);
    const { jobId } = await subscriptions.sendNow(REF, sub.id);
    // Read the job again once it failed: a copy fetched before the state check may be one attempt old.
    const job = await until(async () =>
      (await (await queue.getJob(jobId))?.isFailed()) ? queue.getJob(jobId) : null,
    );
    expect(job.attemptsMade).toBe(3);
    const messages = h.slack.messages(DEMO.general);
    expect(messages).toHaveLength(1);
    expect(isDigest(messages[0] as never)).toBe(false);
    expect(messages[0]?.text).toContain(
      "could not be delivered because the analytics service did not answer",
    );
    expect(messages[0]?.text).not.toMatch(/findings|violations|\b0\b/);
    expect((await subscriptions.get(REF, sub.id))?.lastDelivery).toMatchObject({
      outcome: "failed",
      reason: "unavailable",
    });
    // A duplicate of the same run later finds the verdict and stays quiet.
    h.emulator.clearFaults();
    const period = job.data.period as string;
    await queue.add("send", { sub: job.data.sub, period }, { jobId: "again" });
    await until(() => completed.has("again"));
    expect(h.slack.messages(DEMO.general)).toHaveLength(1);
  });

  it("a rejected API key pauses the subscription and tells the owner to reconnect", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    await h.worker();
    const { subscription: sub } = await subscriptions.create(REF, daily(DEMO.general), OWNER);
    h.emulator.inject({ kind: "status", status: 401 }, 5);
    await subscriptions.sendNow(REF, sub.id);
    await until(() => h.slack.messages(OWNER_DM).length === 1, 10_000, "the owner's DM");
    expect(h.slack.messages(OWNER_DM)[0]?.text).toContain("/insights connect");
    expect(await subscriptions.get(REF, sub.id)).toMatchObject({
      status: "paused",
      pausedReason: "unauthorized",
    });
    expect(h.slack.messages(DEMO.general)).toHaveLength(0);
  });
});

describe("chart upload", () => {
  it("a failed upload still delivers the digest, as text without the image", async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const { subscriptions } = h.producer();
    await h.worker();
    const { subscription: sub } = await subscriptions.create(
      REF,
      { ...daily(DEMO.general), chart: "png" },
      OWNER,
    );
    h.slack.injectHttp("upload", 500, { times: 1 });
    await subscriptions.sendNow(REF, sub.id);
    await until(() => h.slack.messages(DEMO.general).length === 1, 10_000, "the digest");
    const blocks = h.slack.messages(DEMO.general)[0]?.blocks as { type: string }[];
    expect(blocks.some((b) => b.type === "image")).toBe(false);
    expect(blocks[0]?.type).toBe("header");
    expect(h.slack.calls({ method: "files.completeUploadExternal" })).toHaveLength(0);
  });
});
