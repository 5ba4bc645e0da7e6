import { afterEach, describe, expect, inject, it } from "vitest";
import { SCENARIO_KEYS } from "../../sandbox/analytics/index.ts";
import { DEMO } from "../../sandbox/slack/index.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { ACTION, BLOCK } from "../../src/ids.ts";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import { judgeDay } from "../../src/insights/unusual.ts";
import { createAlertState } from "../../src/jobs/alert-state.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { periodOf } from "../../src/subscriptions/period.ts";
import { snoozeField } from "../../src/subscriptions/run-state.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { oracleSeries } from "../fixtures/oracle-series.ts";
import { backends } from "../setup/backends.ts";
import {
  connectKey,
  type Harness,
  insertSubscription,
  REF,
  runCheck,
  startHarness,
} from "./worker-harness.ts";

/**
 * `unusual` alerts with a real worker on real Redis and the emulator's weekly-rhythm accounts: a
 * spike fires once (with what moved it) and clears once, edited in place with a reply in its thread;
 * a partial day and a data gap never fire; a weekly rhythm never fires, not on Mondays; a snooze
 * silences the episode until it ends, then the alert behaves as if just checked. Each check is the
 * job a slot's fan-out makes, for a chosen hour (the emulator's "yesterday" is the harness clock's: today, or CI's fixed instants).
 */
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Midnight UTC of the harness's today (its clock is the emulator's too). */
const today0 = (harness: Harness) => Math.floor(harness.clock().getTime() / DAY) * DAY;
const at = (ms: number) => periodOf(ms);

const posts = (harness: Harness) =>
  harness.slack.calls((c) => c.method === "chat.postMessage" && c.ok && c.args.channel === DEMO.security);
const top = (harness: Harness) => posts(harness).filter((c) => c.args.thread_ts === undefined);
const replies = (harness: Harness) => posts(harness).filter((c) => c.args.thread_ts !== undefined);
const edits = (harness: Harness) => harness.slack.calls((c) => c.method === "chat.update" && c.ok);
const json = (v: unknown) => JSON.stringify(v);

async function unusualAlert(harness: Harness, key: string, condition = "when violations unusual") {
  await connectKey(harness, key);
  return insertSubscription(harness, { mode: "alert", condition, tz: "UTC" });
}

describe.each(backends())("unusual alerts ($name)", ({ url }) => {
  it("a spike fires once with what moved it, never while its day is partial, and clears once", {
    timeout: 120_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    await harness.worker();
    const sub = await unusualAlert(harness, SCENARIO_KEYS.unusualDay);
    const t = today0(harness);
    // Yesterday noon: the spike's day is still being filled; the day before it is judged, and usual.
    const partial = await runCheck(harness, sub, at(t - DAY + 12 * HOUR), 2);
    expect(partial.lastDelivery).toMatchObject({ outcome: "skipped" });
    expect(partial.lastDelivery?.reason).toMatch(/^violations [\d,]+ yesterday .*, within a usual/);
    expect(top(harness)).toHaveLength(0);
    // Today 01:00: yesterday is complete and unusual. Duplicated jobs post it once.
    const fired = await runCheck(harness, sub, at(t + HOUR), 2);
    expect(fired.runs?.alert).toMatchObject({ state: "firing", episode: { id: at(t + HOUR) } });
    expect(await runCheck(harness, sub, at(t + 2 * HOUR), 2)).toMatchObject({
      lastDelivery: { outcome: "skipped", reason: expect.stringMatching(/^still firing: violations/) },
    });
    const [fire] = top(harness);
    expect(top(harness)).toHaveLength(1);
    expect(String(fire?.args.text)).toMatch(
      /^Alert: violations [\d,]+ yesterday \(\w{3} \w{3} \d+\); a usual \w+day is [\d,]+–[\d,]+, [\d.]+× its median \(when violations unusual\)$/,
    );
    const blocks = fire?.args.blocks as { block_id?: string; type: string; elements?: unknown[] }[];
    expect(checkMessage({ blocks, text: String(fire?.args.text) })).toEqual([]);
    const drivers = json(blocks.find((b) => b.block_id === BLOCK.alertDrivers));
    expect(drivers).toMatch(/What moved it.*against .*the most typical of the last 8 \w+days/);
    // The planted group is the first contributor named, and a button narrows a digest to it.
    expect(drivers).toMatch(/by asset group: payments\/\* \+[\d,]+/);
    const narrow = blocks.find((b) => b.block_id === BLOCK.alertDriverButtons)?.elements?.[0];
    expect(json(narrow)).toContain('\\"g\\":[\\"payments\\"]');
    const controls = json(blocks.find((b) => b.block_id === BLOCK.alertControls));
    for (const id of [ACTION.alertAcknowledge, ACTION.alertSnooze, ACTION.alertWhy, ACTION.alertPause])
      expect(controls).toContain(id);
    expect(blocks.find((b) => b.type === "context_actions")).toMatchObject({ block_id: BLOCK.alertFeedback });
    // Tomorrow 01:00: today is judged, usual again. The episode's message says so, and its thread.
    const cleared = await runCheck(harness, sub, at(t + DAY + HOUR), 2);
    expect(cleared.runs?.alert?.state).toBe("clear");
    expect(top(harness)).toHaveLength(1);
    const ts = harness.slack.messages(DEMO.security).find((m) => m.threadTs === undefined)?.ts;
    expect(replies(harness).map((c) => [c.args.thread_ts, String(c.args.text)])).toEqual([
      [
        ts,
        expect.stringMatching(
          /^:white_check_mark: Cleared .*: violations [\d,]+ yesterday .*, within a usual/,
        ),
      ],
    ]);
    expect(edits(harness).map((c) => c.args.ts)).toEqual([ts]);
    const edited = json(edits(harness)[0]?.args.blocks);
    expect(edited).toContain("*Cleared*");
    expect(edited).not.toContain(ACTION.alertAcknowledge);
    expect(edited).toContain(ACTION.alertFeedback);
  });

  it("a data gap never fires: totals that look unusually low while two scanners are silent say nothing", {
    timeout: 60_000,
  }, async () => {
    h = await startHarness({ redisUrl: url });
    const harness = h;
    await harness.worker();
    const sub = await unusualAlert(harness, SCENARIO_KEYS.weeklyOutage, "when violations unusually low");
    const t = today0(harness);
    const yesterday = new Date(t - DAY).toISOString().slice(0, 10);
    // The totals alone would call yesterday unusually low (the oracle, judged as the alert would).
    const today = new Date(t).toISOString().slice(0, 10);
    const points = oracleSeries(SCENARIO_KEYS.weeklyOutage, yesterday, 57, today);
    expect(judgeDay(points, "violations", yesterday)).toMatchObject({ kind: "judged", direction: "low" });
    const after = await runCheck(harness, sub, at(t + HOUR));
    expect(after.lastDelivery?.outcome).toBe("skipped");
    expect(after.lastDelivery?.reason).toMatch(
      /^violations not judged yesterday \(\w{3} \w{3} \d+\): a data gap/,
    );
    expect(after.runs?.alert?.state).not.toBe("firing");
    expect(posts(harness)).toHaveLength(0);
  });
});

describe("unusual alerts over weeks and snoozes", () => {
  it("a weekly rhythm without an anomaly never fires, not on Mondays", { timeout: 180_000 }, async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    await harness.worker();
    const sub = await unusualAlert(harness, SCENARIO_KEYS.weekly);
    const t = today0(harness);
    const mondays: string[] = [];
    for (let back = 15; back >= 0; back--) {
      const period = at(t - back * DAY + HOUR);
      const judged = addDays(new Date(t - back * DAY).toISOString().slice(0, 10), -1);
      const after = await runCheck(harness, sub, period);
      expect(after.lastDelivery?.outcome, period).toBe("skipped");
      expect(after.lastDelivery?.reason, period).toMatch(/within a usual/);
      if (isoWeekday(judged) === 1) mondays.push(after.lastDelivery?.reason ?? "");
    }
    expect(mondays.length).toBeGreaterThanOrEqual(2);
    for (const reason of mondays) expect(reason).toMatch(/within a usual Monday/);
    expect(posts(harness)).toHaveLength(0);
  });

  it("a snooze posts nothing until it ends; then the alert says once that it still holds, and later clears", {
    timeout: 120_000,
  }, async () => {
    h = await startHarness({ redisUrl: inject("redisUrl") });
    const harness = h;
    await harness.worker();
    const sub = await unusualAlert(harness, SCENARIO_KEYS.unusualDay);
    const alerts = createAlertState({
      redis: harness.redis,
      keys: createKeyScheme({ prefix: harness.prefix }),
    });
    const t = today0(harness);
    const fired = await runCheck(harness, sub, at(t + HOUR));
    const ep = fired.runs?.alert?.episode?.id ?? "";
    // Snoozed for an hour and a half from 01:00, by someone.
    const until = new Date(t + 2.5 * HOUR);
    const snoozed = await alerts.snooze(REF, sub.id, ep, {
      value: snoozeField("hour", until, DEMO.admin, new Date(t + HOUR)),
      kind: "hour",
      by: DEMO.admin,
      at: new Date(t + HOUR),
    });
    expect(snoozed).toBe("done");
    const during = await runCheck(harness, sub, at(t + 2 * HOUR), 2);
    expect(during.lastDelivery?.reason).toMatch(/^snoozed until .*: violations [\d,]+ yesterday/);
    expect(replies(harness)).toHaveLength(0);
    // 03:00: the snooze is over and the day is still unusual: said once, in the thread, and redrawn.
    const resumed = await runCheck(harness, sub, at(t + 3 * HOUR), 2);
    expect(resumed.runs?.alert).toMatchObject({ state: "firing" });
    expect(resumed.runs?.alert?.snoozed).toBeUndefined();
    expect(replies(harness).map((c) => String(c.args.text))).toEqual([
      expect.stringMatching(/^:rotating_light: The snooze ended and the alert still holds: violations/),
    ]);
    expect(await runCheck(harness, sub, at(t + 4 * HOUR))).toMatchObject({
      lastDelivery: { reason: expect.stringMatching(/^still firing/) },
    });
    // Until it clears: silent while it holds, cleared when it does not.
    await alerts.snooze(REF, sub.id, ep, {
      value: snoozeField("clear", undefined, DEMO.admin, new Date(t + 4 * HOUR)),
      kind: "clear",
      by: DEMO.admin,
      at: new Date(t + 4 * HOUR),
    });
    expect((await runCheck(harness, sub, at(t + 5 * HOUR))).lastDelivery?.reason).toMatch(
      /^snoozed until it clears: /,
    );
    const cleared: Subscription = await runCheck(harness, sub, at(t + DAY + HOUR));
    expect(cleared.runs?.alert?.state).toBe("clear");
    expect(replies(harness)).toHaveLength(2);
    expect(top(harness)).toHaveLength(1);
    expect(String(replies(harness)[1]?.args.text)).toMatch(/^:white_check_mark: Cleared/);
    // Deleting the alert deletes the episode's kept message with it.
    const keys = createKeyScheme({ prefix: harness.prefix });
    expect(await harness.redis.exists(keys.alertMessage(REF, sub.id))).toBe(1);
    expect(await harness.producer().subscriptions.remove(REF, sub.id)).toBe(true);
    expect(await harness.redis.exists(keys.alertMessage(REF, sub.id))).toBe(0);
  });
});
