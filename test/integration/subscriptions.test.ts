import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors.ts";
import type { SubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { createKeyScheme, workspaceLabel } from "../../src/store/keys.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { previousRun } from "../../src/subscriptions/schedule.ts";
import { slotFor, slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { SubscriptionInput } from "../../src/subscriptions/types.ts";
import { quietRuntime } from "../fixtures/runtime.ts";
import { backends, useRedis } from "../setup/backends.ts";

const A = { teamId: "T0SUBSA01" };
const B = { enterpriseId: "E0ORG0001", teamId: "T0SUBSB01" };
const OWNER = "U0ADMIN01";
const QUEUE_PREFIX = "{insights}";
const weekly: SubscriptionInput = {
  channelId: "C0GENERAL",
  schedule: { kind: "weekly", days: ["mon"] },
  tz: "Europe/Berlin",
};
const MON_BERLIN = slotFor("0 9 * * 1", "Europe/Berlin");

async function code(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return (err as AppError).code;
}

describe.each(backends())("subscription records, slots and schedulers ($name)", ({ url }) => {
  const runtimes: SubscriptionRuntime[] = [];
  const redis = useRedis(url, async () => {
    for (const rt of runtimes) await rt.close();
  });

  function runtime(clock?: () => Date) {
    const id = randomUUID().slice(0, 8);
    const rt = quietRuntime(redis, {
      queuePrefix: QUEUE_PREFIX,
      prefix: `t-subs-${id}`,
      queueName: `subs-${id}`,
      clock,
    });
    runtimes.push(rt);
    const keys = createKeyScheme({ prefix: `t-subs-${id}` });
    const schedulerIds = async () => (await rt.queue.getJobSchedulers()).map((s) => s.key).sort();
    const members = (ref: typeof A, slotId: string) => redis.hgetall(keys.slotMembers(ref, slotId));
    return { ...rt, keys, schedulerIds, members };
  }

  it("creates a record, its index entry, its slot membership and one scheduler per (pattern, zone)", async () => {
    const { subscriptions, queue, keys, schedulerIds, members, registry } = runtime();
    const { subscription: sub, nextRuns } = await subscriptions.create(A, weekly, OWNER);
    expect(sub).toMatchObject({
      ref: A,
      channelId: "C0GENERAL",
      ownerId: OWNER,
      status: "active",
      time: "09:00",
    });
    expect(nextRuns).toHaveLength(5);
    expect(await redis.hget(keys.subscriptionIndex(A), sub.id)).toBe("C0GENERAL");
    expect(await members(A, MON_BERLIN.id)).toEqual({ [sub.id]: "C0GENERAL" });
    expect((await registry.workspaces(MON_BERLIN.id)).map(workspaceLabel)).toEqual([workspaceLabel(A)]);
    const scheduler = await queue.getJobScheduler(slotSchedulerId(MON_BERLIN.id));
    expect(scheduler).toMatchObject({ pattern: "0 9 * * 1", tz: "Europe/Berlin", name: "slot" });
    expect(scheduler?.template?.data).toEqual({ slot: MON_BERLIN.id });
    expect(scheduler?.next).toBe(nextRuns[0]?.getTime());
    expect(await subscriptions.get(A, sub.id)).toEqual(sub);

    // The same schedule in another workspace joins the slot; another zone is another slot.
    const b = (await subscriptions.create(B, weekly, OWNER)).subscription;
    const ny = (await subscriptions.create(A, { ...weekly, tz: "America/New_York" }, OWNER)).subscription;
    expect(await schedulerIds()).toEqual(
      [slotSchedulerId(MON_BERLIN.id), slotSchedulerId(slotOf(ny)?.id ?? "")].sort(),
    );
    expect(await members(B, MON_BERLIN.id)).toEqual({ [b.id]: "C0GENERAL" });
    expect(await registry.size(MON_BERLIN.id)).toBe(2);
    // One pending run per slot, not per subscription.
    expect(await queue.getDelayedCount()).toBe(2);
  });

  it("an update moves the channel and the slot together; the emptied slot loses its scheduler", async () => {
    const { subscriptions, members, schedulerIds, registry } = runtime();
    const one = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const two = (
      await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" }, time: "07:30" }, OWNER)
    ).subscription;
    const daily = slotOf(two)?.id ?? "";
    const { subscription: moved, nextRuns } = await subscriptions.update(A, two.id, {
      channelId: "C0SECURITY",
      schedule: { kind: "cron", expression: "15 6 * * 1-5" },
      tz: "America/New_York",
    });
    const cron = slotOf(moved)?.id ?? "";
    expect(nextRuns[0]?.getUTCMinutes()).toBe(15);
    expect(await members(A, daily)).toEqual({});
    expect(await members(A, cron)).toEqual({ [two.id]: "C0SECURITY" });
    expect(await registry.size(daily)).toBe(0);
    expect(await schedulerIds()).toEqual([slotSchedulerId(MON_BERLIN.id), slotSchedulerId(cron)].sort());
    expect((await subscriptions.listByChannel(A, "C0GENERAL")).map((s) => s.id)).toEqual([one.id]);
    expect((await subscriptions.listByChannel(A, "C0SECURITY")).map((s) => s.id)).toEqual([two.id]);
    expect(await subscriptions.get(A, two.id)).toEqual(moved);
    // A channel move within the same slot updates the member's channel (pacing reads it).
    await subscriptions.update(A, one.id, { channelId: "C0SECURITY" });
    expect(await members(A, MON_BERLIN.id)).toEqual({ [one.id]: "C0SECURITY" });
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

  it("pause leaves the slot (its scheduler and pending run go with the last member); resume joins again", async () => {
    const { subscriptions, queue, members } = runtime();
    const sub = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const other = (await subscriptions.create(B, weekly, OWNER)).subscription;
    const sid = slotSchedulerId(MON_BERLIN.id);
    await subscriptions.pause(B, other.id);
    expect(await queue.getJobScheduler(sid)).toMatchObject({ pattern: "0 9 * * 1" });
    const paused = await subscriptions.pause(A, sub.id);
    expect(paused).toMatchObject({ status: "paused", pausedReason: "paused_by_user" });
    expect(await members(A, MON_BERLIN.id)).toEqual({});
    expect(await queue.getJobScheduler(sid)).toBeUndefined();
    expect(await queue.getDelayedCount()).toBe(0);
    expect(subscriptions.nextRuns(paused)).toEqual([]);
    const resumed = await subscriptions.resume(A, sub.id);
    expect(resumed.subscription.status).toBe("active");
    expect(resumed.subscription.pausedReason).toBeUndefined();
    expect(resumed.catchUpPeriod).toBeNull();
    expect(await queue.getJobScheduler(sid)).toMatchObject({ pattern: "0 9 * * 1" });
    expect(await members(A, MON_BERLIN.id)).toEqual({ [sub.id]: "C0GENERAL" });
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
    expect(waiting.map((j) => [j.name, j.data.period, j.data.ch])).toEqual([
      ["catchup", expected, "C0GENERAL"],
    ]);
  });

  it("resume skips the catch-up when a digest already went out after the missed run (a test send after the fix)", async () => {
    let now = new Date(Date.now() - 10 * 86_400_000);
    const { subscriptions, store, queue } = runtime(() => now);
    const sub = (await subscriptions.create(A, { ...weekly, schedule: { kind: "daily" } }, OWNER))
      .subscription;
    await subscriptions.pause(A, sub.id);
    now = new Date();
    await store.recordLast(A, sub.id, {
      period: "send-x",
      at: now.toISOString(),
      outcome: "delivered",
      messageTs: "1.1",
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
        ["notice", `${workspaceLabel(A)}.${a.id}`, "channel_archived"],
        ["notice", `${workspaceLabel(A)}.${b.id}`, "channel_archived"],
      ].sort(),
    );
    const resumed = await subscriptions.resumeChannel(A, "C0GENERAL");
    expect(resumed.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
    // Paused by a person: only a person resumes it.
    expect((await subscriptions.get(A, byUser.id))?.status).toBe("paused");
  });

  it("remove and removeWorkspace delete records, index, memberships and emptied schedulers, nothing of other workspaces", async () => {
    const { subscriptions, keys, schedulerIds } = runtime();
    const one = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const daily = (
      await subscriptions.create(
        A,
        { ...weekly, schedule: { kind: "daily" }, channelId: "C0SECURITY" },
        OWNER,
      )
    ).subscription;
    const keep = (await subscriptions.create(B, weekly, OWNER)).subscription;
    expect(await subscriptions.remove(A, one.id)).toBe(true);
    expect(await subscriptions.removeWorkspace(A)).toBe(1);
    const left: string[] = [];
    for await (const page of scanKeys(redis, keys.workspaceKeyPattern(A))) left.push(...page);
    expect(left).toEqual([]);
    expect(await schedulerIds()).toEqual([slotSchedulerId(MON_BERLIN.id)]);
    expect(slotOf(daily)?.id).not.toBe(MON_BERLIN.id);
    expect(await subscriptions.get(B, keep.id)).toEqual(keep);
  });

  it("reconcile heals lost schedulers, memberships and registrations, removes strays, leaves foreign ones, and is idempotent", async () => {
    const { subscriptions, queue, keys, schedulerIds, members, registry } = runtime();
    const a = (await subscriptions.create(A, weekly, OWNER)).subscription;
    const b = (await subscriptions.create(B, { ...weekly, schedule: { kind: "daily" } }, OWNER)).subscription;
    const paused = (await subscriptions.create(A, weekly, OWNER)).subscription;
    await subscriptions.pause(A, paused.id);
    const daily = slotOf(b)?.id ?? "";
    // Damage: a lost scheduler, a lost membership, a lost registration, a stray member, a stray slot, a foreign scheduler.
    await queue.removeJobScheduler(slotSchedulerId(daily));
    await redis.hdel(keys.slotMembers(B, daily), b.id);
    await redis.srem(keys.slotWorkspaces(MON_BERLIN.id), workspaceLabel(A));
    await redis.hset(keys.slotMembers(A, MON_BERLIN.id), paused.id, "C0GENERAL", "gone0000", "C0GENERAL");
    const stray = slotFor("0 3 * * *", "UTC");
    await queue.upsertJobScheduler(
      slotSchedulerId(stray.id),
      { pattern: stray.pattern, tz: "UTC" },
      { name: "slot", data: { slot: stray.id } },
    );
    await queue.upsertJobScheduler("someone-elses", { pattern: "0 9 * * 1" }, { name: "other" });

    expect(await subscriptions.reconcile()).toMatchObject({
      active: 2,
      slots: 2,
      membersHealed: 3,
      schedulersRemoved: 1,
      schedulersEnsured: 1,
    });
    const want = [slotSchedulerId(MON_BERLIN.id), slotSchedulerId(daily), "someone-elses"].sort();
    expect(await schedulerIds()).toEqual(want);
    expect(await members(A, MON_BERLIN.id)).toEqual({ [a.id]: "C0GENERAL" });
    expect(await members(B, daily)).toEqual({ [b.id]: "C0GENERAL" });
    expect((await registry.workspaces(MON_BERLIN.id)).map(workspaceLabel)).toEqual([workspaceLabel(A)]);
    const delayed = await queue.getDelayedCount();
    expect(await subscriptions.reconcile()).toMatchObject({
      membersHealed: 0,
      schedulersRemoved: 0,
      schedulersEnsured: 0,
    });
    expect(await schedulerIds()).toEqual(want);
    // Re-checking an unchanged scheduler must not add a second next run.
    expect(await queue.getDelayedCount()).toBe(delayed);
    expect(delayed).toBe(3);
  });
});
