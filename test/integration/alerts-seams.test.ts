import { afterEach, describe, expect, it } from "vitest";
import { SCENARIO_KEYS, SEED_INSIGHTS_QUERY, seedPost } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { addDays } from "../../src/insights/days.ts";
import { baselineRange } from "../../src/insights/unusual.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { backends } from "../setup/backends.ts";
import { type AlertWorld, alertWorld, DAY, HOUR } from "./alert-world.ts";
import { connectKey, REF, startHarness, until } from "./worker-harness.ts";

/**
 * An alert over time and at its seams, on fixed instants: a firing alert that the data cannot judge
 * holds its state; its message and its votes live as long as it does, past any fixed expiry; a click
 * whose edit reaches Slack after the worker's all-clear never draws the alert firing again.
 */

let w: AlertWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** Wednesday 6 January 2027, 01:00 UTC. */
const T = Date.UTC(2027, 0, 6, 1);

const top = (world: AlertWorld, subId: string) =>
  world.harness.slack
    .messages(DEMO.security)
    .filter((m) => m.threadTs === undefined && JSON.stringify(m.blocks ?? []).includes(`${subId}|`));
const thread = (world: AlertWorld, ts: string) =>
  world.harness.slack.messages(DEMO.security).filter((m) => m.threadTs === ts);
const textOf = (m: { blocks?: unknown } | undefined) => JSON.stringify(m?.blocks ?? []);

describe.each(backends())("an alert's seams ($name)", ({ url }) => {
  it("too little history never clears a firing unusual alert: it holds until the day can be judged", {
    timeout: 90_000,
  }, async () => {
    w = await alertWorld({ redisUrl: url, start: T });
    const world = w;
    const sub = await world.newAlert({ condition: "when violations unusual" });
    await connectKey(world.harness, SCENARIO_KEYS.unusualDay);
    // 01:00: yesterday is the planted unusual day, judged against eight full weeks: it fires.
    const fired = await world.check(sub, T);
    expect(fired.runs?.alert).toMatchObject({ state: "firing", episode: { id: expect.any(String) } });
    const [message] = top(world, sub.id);
    expect(message).toBeDefined();
    // A day later the service answers with only the last three weeks of the series: three earlier
    // Wednesdays of the six needed. Both of the check's questions (its range, and the weekday series)
    // get that answer.
    world.cal.set(T + DAY);
    const day = addDays(world.cal.day(), -1);
    const { from } = baselineRange(day);
    const reply = await seedPost(
      world.harness.emulator.graphqlUrl,
      { query: SEED_INSIGHTS_QUERY, variables: { from_day: from, to_day: day } },
      { apiKey: SCENARIO_KEYS.unusualDay },
    );
    const body = JSON.parse(reply.text) as {
      data: { insights: { dailyMetric: { timeStamp: string }[]; dailyActivity: { timeStamp: string }[] } };
    };
    const recent = addDays(day, -21);
    const ins = body.data.insights;
    ins.dailyMetric = ins.dailyMetric.filter((p) => p.timeStamp.slice(0, 10) >= recent);
    ins.dailyActivity = ins.dailyActivity.filter((p) => p.timeStamp.slice(0, 10) >= recent);
    world.harness.emulator.inject({ kind: "reply", body }, 2);
    const held = await world.check(sub, T + DAY);
    expect(held.lastDelivery).toMatchObject({
      outcome: "skipped",
      reason: expect.stringMatching(
        /^violations not judged yesterday .*: only 3 of the last 8 Wednesdays known \(6 needed\); the alert stays firing$/,
      ),
    });
    expect(held.runs?.alert?.state).toBe("firing");
    // Nothing was told: no all-clear, the message still fires with its buttons.
    expect(thread(world, message?.ts ?? "")).toEqual([]);
    expect(top(world, sub.id)).toHaveLength(1);
    expect(textOf(top(world, sub.id)[0])).toContain("*Firing*");
    // The next day is judged on its full history again, and usual (the same rhythm without the
    // planted day, which the emulator keeps on its yesterday): now it clears, in place.
    await connectKey(world.harness, SCENARIO_KEYS.weekly);
    const cleared = await world.check(sub, T + 2 * DAY + HOUR);
    expect(cleared.runs?.alert?.state).toBe("clear");
    expect(top(world, sub.id)).toHaveLength(1);
    expect(thread(world, message?.ts ?? "").map((m) => m.text)).toEqual([
      expect.stringMatching(/^:white_check_mark: Cleared/),
    ]);
  });

  it("an alert firing for months keeps its message: clicks redraw it and its all-clear edits it in place", {
    timeout: 60_000,
  }, async () => {
    w = await alertWorld({ redisUrl: url, start: T });
    const world = w;
    const sub = await world.newAlert();
    await world.data(true);
    const fired = await world.check(sub, T);
    const ep = fired.runs?.alert?.episode?.id ?? "";
    const [message] = top(world, sub.id);
    const ts = message?.ts ?? "";
    // Still firing 31 days on (a check a day), with Redis' clock moved on as far.
    for (let d = 1; d <= 31; d++) await world.age(DAY);
    expect((await world.check(sub, T + 31 * DAY)).lastDelivery?.reason).toMatch(/^still firing/);
    expect(await world.acknowledge(DEMO.admin, `${sub.id}|${ep}`)).toEqual([]);
    expect(textOf(top(world, sub.id)[0])).toContain("*Acknowledged* by <@U0ADMIN01>");
    await world.age(31 * DAY);
    // Two months after it fired, it clears: on its own message, not in a new one.
    await world.data(false);
    const cleared = await world.check(sub, T + 62 * DAY);
    expect(cleared.runs?.alert?.state).toBe("clear");
    expect(top(world, sub.id)).toHaveLength(1);
    const drawn = textOf(top(world, sub.id)[0]);
    expect(drawn).toContain("*Cleared*");
    expect(drawn).not.toContain("alert_acknowledge");
    expect(drawn).not.toContain("alert_snooze");
    expect(thread(world, ts).map((m) => m.text)).toEqual([
      expect.stringMatching(/^:eyes: Acknowledged by <@U0ADMIN01>/),
      expect.stringMatching(/^:white_check_mark: Cleared/),
    ]);
  });

  it("a vote counts once however long ago it was cast", { timeout: 60_000 }, async () => {
    w = await alertWorld({ redisUrl: url, start: T });
    const world = w;
    const sub = await world.newAlert();
    await world.data(true);
    const ep = (await world.check(sub, T)).runs?.alert?.episode?.id ?? "";
    const up = `${sub.id}|${ep}|+`;
    expect(await world.feedback(DEMO.member, up)).toEqual([
      "Thanks: noted as useful. This alert so far: 1 👍 · 0 👎",
    ]);
    await world.age(31 * DAY);
    world.cal.set(T + 31 * DAY);
    // The same person, the same vote, a month later: still one vote. Someone else's is another.
    expect(await world.feedback(DEMO.member, up)).toEqual([
      "Thanks: noted as useful. This alert so far: 1 👍 · 0 👎",
    ]);
    expect(await world.feedback(DEMO.admin, `${sub.id}|${ep}|-`)).toEqual([
      "Thanks: noted as not useful. This alert so far: 1 👍 · 1 👎",
    ]);
    await world.age(400 * DAY);
    expect(await world.feedback(DEMO.member, `${sub.id}|${ep}|-`)).toEqual([
      "Thanks: noted as not useful. This alert so far: 0 👍 · 2 👎",
    ]);
    expect((await world.record(sub))?.runs?.feedback).toEqual({ useful: 0, notUseful: 2 });
  });

  it("a worker starting takes the 30-day expiry off the messages and votes earlier versions kept", async () => {
    const harness = await startHarness({ redisUrl: url });
    try {
      const keys = createKeyScheme({ prefix: harness.prefix });
      const message = keys.alertMessage(REF, "legacy1");
      const votes = keys.alertFeedback(REF, "legacy1");
      await harness.redis.set(message, "{}", "PX", 30 * DAY);
      await harness.redis.hset(votes, "20261101T090000Z:U0MEMBER1", "+");
      await harness.redis.pexpire(votes, 30 * DAY);
      await harness.worker();
      expect([await harness.redis.pttl(message), await harness.redis.pttl(votes)]).toEqual([-1, -1]);
    } finally {
      await harness.close();
    }
  });

  it("a click whose edit reaches Slack after the worker's all-clear never draws the alert firing again", {
    timeout: 60_000,
  }, async () => {
    w = await alertWorld({ redisUrl: url, start: T });
    const world = w;
    const { harness } = world;
    const keys = createKeyScheme({ prefix: harness.prefix });
    const sub = await world.newAlert();
    await world.data(true);
    const ep = (await world.check(sub, T)).runs?.alert?.episode?.id ?? "";
    const ts = top(world, sub.id)[0]?.ts ?? "";
    await world.data(false);
    // Acknowledge is pressed while the alert fires; its edit is slow on the way to Slack.
    const slow = harness.slack.holdNext("chat.update");
    const click = world.acknowledge(DEMO.admin, `${sub.id}|${ep}`);
    await slow.arrived;
    // Meanwhile the worker's check finds the condition gone and clears the alert.
    const check = world.startCheck(sub, T + DAY);
    const clearedEdit = () =>
      harness.slack
        .calls((c) => c.method === "chat.update" && c.ok && c.args.ts === ts)
        .some((c) => JSON.stringify(c.args.blocks).includes("*Cleared*"));
    // The click's edit arrives once the all-clear has been drawn, or once the worker waits to draw it
    // (its transition decided, the message's draw lock held by the click).
    await until(
      async () =>
        clearedEdit() ||
        ((await harness.redis.exists(keys.lock(REF, `alert-draw-${sub.id}`))) === 1 &&
          (await harness.redis.hexists(keys.subscription(REF, sub.id), "aq")) === 1),
      20_000,
      "the worker's all-clear",
    );
    slow.release();
    await click;
    expect((await check.done).runs?.alert?.state).toBe("clear");
    const drawn = textOf(top(world, sub.id)[0]);
    expect(drawn).toContain("*Cleared*");
    expect(drawn).not.toContain("*Firing*");
    expect(drawn).not.toContain("alert_acknowledge");
    expect(drawn).not.toContain("alert_snooze");
    expect(top(world, sub.id)).toHaveLength(1);
    expect(
      thread(world, ts)
        .map((m) => m.text?.slice(0, 24))
        .sort(),
    ).toEqual([":eyes: Acknowledged by <", ":white_check_mark: Clear"]);
  });

  it("Acknowledge while an all-clear is being told changes nothing and says to try again", {
    timeout: 60_000,
  }, async () => {
    w = await alertWorld({ redisUrl: url, start: T });
    const world = w;
    const { harness } = world;
    const sub = await world.newAlert();
    await world.data(true);
    const ep = (await world.check(sub, T)).runs?.alert?.episode?.id ?? "";
    await world.data(false);
    // The worker's all-clear is decided and on its way to Slack (its edit held there).
    const slow = harness.slack.holdNext("chat.update");
    const check = world.startCheck(sub, T + DAY);
    await slow.arrived;
    expect(await world.acknowledge(DEMO.admin, `${sub.id}|${ep}`)).toEqual([
      "The alert is being told a change right now; try again in a moment.",
    ]);
    slow.release();
    const after = await check.done;
    expect(after.runs?.alert).toMatchObject({ state: "clear" });
    expect(after.runs?.alert?.acknowledged).toBeUndefined();
  });
});
