import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import { createSubscriptionRuntime, type SubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { silentLogger } from "../../src/log.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { newSubscriptionId, schedulerIdFor } from "../../src/subscriptions/ids.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { previousRun } from "../../src/subscriptions/schedule.ts";
import type { SubscriptionInput } from "../../src/subscriptions/types.ts";
import { validateFields } from "../../src/subscriptions/validate.ts";

const A = { teamId: "T0SUBSA01" };
const B = { enterpriseId: "E0ORG0001", teamId: "T0SUBSB01" };
const OWNER = "U0ADMIN01";
const QUEUE_PREFIX = "{insights}";
const weekly: SubscriptionInput = {
  channelId: "C0GENERAL",
  schedule: { kind: "weekly", days: ["mon"] },
  tz: "Europe/Berlin",
};

let redis: Redis;
const runtimes: SubscriptionRuntime[] = [];

function runtime(clock?: () => Date) {
  const id = randomUUID().slice(0, 8);
  const rt = createSubscriptionRuntime({
    redis,
    queuePrefix: QUEUE_PREFIX,
    logger: silentLogger(),
    prefix: `t-subs-${id}`,
    queueName: `subs-${id}`,
    clock,
  });
  runtimes.push(rt);
  return { ...rt, keys: createKeyScheme({ prefix: `t-subs-${id}` }) };
}

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

beforeAll(() => {
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});

afterAll(async () => {
  for (const rt of runtimes) await rt.close();
  await redis.quit();
});

describe("subscription records and their schedulers", () => {
  it("creates a record, both indexes and one scheduler with the cron pattern and zone", async () => {
    const { subscriptions, queue, keys } = runtime();
    const { subscription: sub, nextRuns } = await subscriptions.create(A, weekly, OWNER);
    expect(sub).toMatchObject({
      ref: A,
      channelId: "C0GENERAL",
      ownerId: OWNER,
      status: "active",
      range: "last7d",
      time: "09:00",
    });
    expect(nextRuns).toHaveLength(5);
    expect(nextRuns[0]?.getTime()).toBeGreaterThan(Date.now());
    expect(await redis.sismember(keys.subscriptionIndex(A), sub.id)).toBe(1);
    expect(await redis.sismember(keys.channelSubscriptions(A, "C0GENERAL"), sub.id)).toBe(1);
    const scheduler = await queue.getJobScheduler(schedulerIdFor(A, sub.id));
    expect(scheduler).toMatchObject({ pattern: "0 9 * * 1", tz: "Europe/Berlin" });
    expect(scheduler?.template?.data).toEqual({ sub: schedulerIdFor(A, sub.id) });
    expect(scheduler?.next).toBe(nextRuns[0]?.getTime());
    expect(await subscriptions.get(A, sub.id)).toEqual(sub);
  });

  it("keeps several per channel, lists by workspace and channel, and moves the channel index on update", async () => {
    const { subscriptions, queue, keys } = runtime();
    const one = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const two = (
      await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" }, time: "07:30" }, OWNER)
    ).subscription;
    const other = (await subscriptions.create(B, weekly, OWNER)).subscription;
    expect((await subscriptions.listByChannel(A, "C0GENERAL")).map((s) => s.id).sort()).toEqual(
      [one.id, two.id].sort(),
    );
    expect((await subscriptions.list(B)).map((s) => s.id)).toEqual([other.id]);

    const { subscription: moved, nextRuns } = await subscriptions.update(A, two.id, {
      channelId: "C0SECURITY",
      schedule: { kind: "cron", expression: "15 6 * * 1-5" },
      tz: "America/New_York",
    });
    expect(moved).toMatchObject({
      channelId: "C0SECURITY",
      schedule: { kind: "cron", expression: "15 6 * * 1-5" },
      time: "07:30",
    });
    expect(nextRuns[0]?.getUTCMinutes()).toBe(15);
    expect(await redis.smembers(keys.channelSubscriptions(A, "C0GENERAL"))).toEqual([one.id]);
    expect(await redis.smembers(keys.channelSubscriptions(A, "C0SECURITY"))).toEqual([two.id]);
    expect(await queue.getJobScheduler(schedulerIdFor(A, two.id))).toMatchObject({
      pattern: "15 6 * * 1-5",
      tz: "America/New_York",
    });
    expect(await subscriptions.get(A, two.id)).toEqual(moved);
  });

  it("refuses bad input with typed errors and unknown ids with subscription_not_found", async () => {
    const { subscriptions } = runtime();
    expect(await code(subscriptions.create(A, { ...weekly, tz: "Nowhere/City" }, OWNER))).toBe(
      "invalid_subscription",
    );
    expect(await code(subscriptions.create(A, weekly, "not-a-user"))).toBe("invalid_subscription");
    expect(await code(subscriptions.pause(A, "zzzz9999"))).toBe("subscription_not_found");
    expect(await code(subscriptions.update(A, "bad:id", {}))).toBe("subscription_not_found");
    expect(await subscriptions.remove(A, "zzzz9999")).toBe(false);
    expect(await subscriptions.list(A)).toEqual([]);
  });

  it("pause removes the scheduler and its next job; resume brings them back", async () => {
    const { subscriptions, queue } = runtime();
    const sub = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const sid = schedulerIdFor(A, sub.id);
    expect(await queue.getDelayedCount()).toBe(1);
    const paused = await subscriptions.pause(A, sub.id);
    expect(paused).toMatchObject({ status: "paused", pausedReason: "paused_by_user" });
    expect(await queue.getJobScheduler(sid)).toBeUndefined();
    expect(await queue.getDelayedCount()).toBe(0);
    expect(subscriptions.nextRuns(paused)).toEqual([]);
    const resumed = await subscriptions.resume(A, sub.id);
    expect(resumed.subscription.status).toBe("active");
    expect(resumed.subscription.pausedReason).toBeUndefined();
    expect(resumed.catchUpPeriod).toBeNull();
    expect(await queue.getJobScheduler(sid)).toMatchObject({ pattern: "0 9 * * 1" });
    expect(await subscriptions.get(A, sub.id)).toEqual(resumed.subscription);
  });

  it("resume enqueues exactly one catch-up for the latest run missed while paused", async () => {
    let now = new Date(Date.now() - 10 * 86_400_000);
    const { subscriptions, queue } = runtime(() => now);
    const sub = (await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" } }, OWNER))
      .subscription;
    await subscriptions.pause(A, sub.id);
    now = new Date();
    const { catchUpPeriod } = await subscriptions.resume(A, sub.id);
    const expected = periodOf(previousRun({ kind: "daily" }, "09:00", "Europe/Berlin", now) as Date);
    expect(catchUpPeriod).toBe(expected);
    const waiting = await queue.getJobs(["wait", "prioritized"]);
    expect(waiting.map((j) => [j.name, j.data.period])).toEqual([["catchup", expected]]);
  });

  it("resume skips the catch-up when a digest already went out after the missed run (a test send after the fix)", async () => {
    let now = new Date(Date.now() - 10 * 86_400_000);
    const { subscriptions, store, queue } = runtime(() => now);
    const sub = (await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" } }, OWNER))
      .subscription;
    const paused = await subscriptions.pause(A, sub.id);
    now = new Date();
    await store.patch(paused, {
      lastDelivery: { period: "send-x", at: now.toISOString(), outcome: "delivered", messageTs: "1.1" },
    });
    expect((await subscriptions.resume(A, sub.id)).catchUpPeriod).toBeNull();
    expect(await queue.getJobs(["wait", "prioritized"])).toEqual([]);
  });

  it("pauseChannel pauses that channel's active subscriptions and queues one owner notice each; resumeChannel undoes it", async () => {
    const { subscriptions, queue } = runtime();
    const a = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const b = (await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" } }, "U0MEMBER1"))
      .subscription;
    const elsewhere = (await subscriptions.create(A, { ...weekly, channelId: "C0SECURITY" }, OWNER))
      .subscription;
    const byUser = (await subscriptions.create(A, weekly, OWNER)).subscription;
    await subscriptions.pause(A, byUser.id);
    const paused = await subscriptions.pauseChannel(A, "C0GENERAL", "channel_archived");
    expect(paused.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    expect((await subscriptions.get(A, a.id))?.pausedReason).toBe("channel_archived");
    expect((await subscriptions.get(A, elsewhere.id))?.status).toBe("active");
    const notices = await queue.getJobs(["wait"]);
    expect(notices.map((j) => [j.name, j.data.sub, j.data.reason]).sort()).toEqual(
      [
        ["notice", schedulerIdFor(A, a.id), "channel_archived"],
        ["notice", schedulerIdFor(A, b.id), "channel_archived"],
      ].sort(),
    );
    const resumed = await subscriptions.resumeChannel(A, "C0GENERAL");
    expect(resumed.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    // Paused by a person: only a person resumes it.
    expect((await subscriptions.get(A, byUser.id))?.status).toBe("paused");
  });

  it("remove and removeWorkspace delete records, indexes and schedulers, and nothing of other workspaces", async () => {
    const { subscriptions, queue, keys } = runtime();
    const one = (await subscriptions.create(A, weekly, OWNER)).subscription;
    await subscriptions.create(A, { ...weekly, channelId: "C0SECURITY" }, OWNER);
    const keep = (await subscriptions.create(B, weekly, OWNER)).subscription;
    expect(await subscriptions.remove(A, one.id)).toBe(true);
    expect(await queue.getJobScheduler(schedulerIdFor(A, one.id))).toBeUndefined();
    expect(await subscriptions.removeWorkspace(A)).toBe(1);
    const left: string[] = [];
    for await (const page of scanKeys(redis, keys.workspaceKeyPattern(A))) left.push(...page);
    expect(left).toEqual([]);
    expect((await queue.getJobSchedulers()).map((s) => s.key)).toEqual([schedulerIdFor(B, keep.id)]);
    expect(await subscriptions.get(B, keep.id)).toEqual(keep);
  });

  it("reconcile heals lost schedulers, removes strays, leaves foreign ones, and is idempotent", async () => {
    const { subscriptions, queue } = runtime();
    const a = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const b = (await subscriptions.create(B, { ...weekly, schedule: { kind: "daily" } }, OWNER)).subscription;
    const paused = (await subscriptions.create(A, weekly, OWNER)).subscription;
    await subscriptions.pause(A, paused.id);
    await queue.removeJobScheduler(schedulerIdFor(A, a.id));
    await queue.upsertJobScheduler(
      schedulerIdFor(A, "gone0000"),
      { pattern: "0 9 * * 1" },
      { name: "digest" },
    );
    await queue.upsertJobScheduler("someone-elses", { pattern: "0 9 * * 1" }, { name: "other" });
    expect(await subscriptions.reconcile()).toEqual({ upserted: 2, removed: 1 });
    const ids = async () => (await queue.getJobSchedulers()).map((s) => s.key).sort();
    const want = [schedulerIdFor(A, a.id), schedulerIdFor(B, b.id), "someone-elses"].sort();
    expect(await ids()).toEqual(want);
    const delayed = await queue.getDelayedCount();
    expect(await subscriptions.reconcile()).toEqual({ upserted: 2, removed: 0 });
    expect(await ids()).toEqual(want);
    // Re-upserting an unchanged scheduler must not add a second next run.
    expect(await queue.getDelayedCount()).toBe(delayed);
    expect(delayed).toBe(3);
  });
});

describe("memory", () => {
  it("measures Redis bytes per subscription: record, indexes, scheduler and its pending next job", async () => {
    const { store, scheduler, queue, keys } = runtime();
    // 130 > 128: the queue's sorted sets and our index sets are past Redis' compact encodings, as in a real install.
    const n = 130;
    const now = new Date();
    for (let i = 0; i < n; i++) {
      const fields = validateFields(
        {
          channelId: `C0CHAN${String(i % 10).padStart(3, "0")}`,
          schedule: { kind: "weekly", days: ["mon", "thu"] },
          tz: "Europe/Berlin",
          range: "last30d",
          assetIds: [randomUUID()],
          filterLabels: ["payments / api"],
        },
        now,
      );
      // What create() writes, minus the five-run preview it computes for the reply.
      const sub = {
        id: newSubscriptionId(),
        ref: A,
        ownerId: OWNER,
        ...fields,
        status: "active" as const,
        createdAt: now.toISOString(),
      };
      await store.insert(sub);
      await scheduler.sync(sub);
    }
    const usage = async (pattern: string) => {
      const sizes: Record<string, number> = {};
      for await (const page of scanKeys(redis, pattern))
        for (const key of page) sizes[key] = Number(await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0"));
      return sizes;
    };
    const ours = await usage(keys.workspaceKeyPattern(A));
    const bull = await usage(`${QUEUE_PREFIX}:${queue.name}:*`);
    const per = (o: Record<string, number>, f: (k: string) => boolean) =>
      Object.entries(o).reduce((t, [k, v]) => t + (f(k) ? v : 0), 0) / n;
    const record = per(ours, (k) => k.includes(":sub:"));
    const indexes = per(ours, (k) => !k.includes(":sub:"));
    const schedulerHash = per(bull, (k) => /:repeat:[^:]+$/.test(k));
    const nextJob = per(bull, (k) => /:repeat:[^:]+:\d+$/.test(k));
    // The events stream is the queue's activity log, trimmed at ~10,000 entries: not per subscription.
    const queueSets = per(bull, (k) => !/:repeat:[^:]+(:\d+)?$/.test(k) && !k.endsWith(":events"));
    const withScheduler = record + indexes + schedulerHash + queueSets / 2;
    const total = record + indexes + schedulerHash + nextJob + queueSets;
    console.info(
      `[memory] per subscription: record ${record.toFixed(0)} B + indexes ${indexes.toFixed(0)} B + scheduler hash ${schedulerHash.toFixed(0)} B + queue sorted sets ${queueSets.toFixed(0)} B + pending next job ${nextJob.toFixed(0)} B = ${total.toFixed(0)} B; without the pending job ${(total - nextJob).toFixed(0)} B`,
    );
    expect(Object.keys(ours).filter((k) => k.includes(":sub:"))).toHaveLength(n);
    // Our share stays small; BullMQ's pending job hash (hashtable-encoded: its opts exceed 64 bytes) dominates.
    expect(record + indexes).toBeLessThanOrEqual(512);
    expect(withScheduler).toBeLessThanOrEqual(1536);
    expect(total).toBeLessThanOrEqual(2048);
  });
});
