import { describe, expect, it } from "vitest";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import { completenessOf, DEFAULT_GAP_RULE, findGaps } from "../../src/insights/gaps.ts";
import { partialFrom } from "../../src/insights/partial-day.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import { ctx, LAST, N } from "./fixtures/gap-window.ts";

/** A flat series: `perDay(day index, weekday)` activity, all of it as findings. */
function flat(perDay: (i: number, weekday: number) => number | null, n = N): DayPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(LAST, i - (n - 1));
    const v = perDay(i, isoWeekday(day));
    return {
      day,
      findings: v,
      violations: v === null ? null : Math.floor(v / 2),
      fixed: v === null ? null : 0,
      merged: v === null ? null : 0,
    };
  });
}
const scanner = (points: DayPoint[]) => ({ dimension: "scanner" as const, key: "sca", label: "SCA", points });

describe("the data-gap rule", () => {
  it("flags a busy scanner that falls silent, from the first silent day, as ongoing", () => {
    const points = flat((i) => (i >= N - 3 ? 0 : 100));
    const [gap, ...rest] = findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx());
    expect(rest).toEqual([]);
    expect(gap).toMatchObject({
      key: "sca",
      from: addDays(LAST, -2),
      to: LAST,
      ongoing: true,
      days: 3,
      current: true,
    });
    expect(gap?.expected).toBe(300);
  });

  it("reports a silence that ended, and in which period it fell", () => {
    const points = flat((i) => (i >= N - 40 && i < N - 36 ? 0 : 100));
    const gaps = findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx());
    expect(gaps).toMatchObject([
      { from: addDays(LAST, -39), to: addDays(LAST, -36), ongoing: false, current: false, previous: true },
    ]);
    expect(completenessOf(gaps, ctx().periods, null)).toMatchObject({
      currentIncomplete: false,
      previousIncomplete: true,
    });
  });

  it("does not count today so far, nor a day the service left out, as silence", () => {
    const today = flat((i) => (i === N - 1 ? 0 : 100));
    expect(findGaps([scanner(today)], DEFAULT_GAP_RULE, ctx(LAST))).toEqual([]);
    // Yesterday silent + today partial and silent: one complete silent day is not enough.
    const two = flat((i) => (i >= N - 2 ? 0 : 100));
    expect(findGaps([scanner(two)], DEFAULT_GAP_RULE, ctx(LAST))).toEqual([]);
    const missing = flat((i) => (i === N - 2 ? null : i >= N - 3 ? 0 : 100));
    expect(findGaps([scanner(missing)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("does not flag a quiet slice's empty weekend, a rollout, a sporadic or a weekly slice", () => {
    const weekends = flat((_, w) => (w >= 6 ? 0 : 12));
    const rollout = flat((i) => (i < N - 10 ? 0 : 500));
    const sporadic = flat((i) => (i % 3 === 0 ? 0 : 300));
    const weekly = flat((_, w) => (w === 1 ? 900 : 0));
    const quietish = flat((i) => (i >= N - 2 ? 0 : 10)); // two silent days predict 20 < 30
    for (const points of [weekends, rollout, sporadic, weekly, quietish])
      expect(findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("judges by weekday: a silent Sat–Sun of a weekday-heavy group waits for Monday", () => {
    const base = (w: number) => (w >= 6 ? 8 : 40);
    // LAST is a Saturday: silent Sat + Sun a week earlier, back on Monday → predicted 16: not flagged.
    const weekend = flat((i, w) => (i === N - 8 || i === N - 7 ? 0 : base(w)));
    expect(isoWeekday(addDays(LAST, -7))).toBe(6);
    expect(findGaps([scanner(weekend)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
    // Silent through Monday too: 8 + 8 + 40 = 56 ≥ 30.
    const through = flat((i, w) => (i >= N - 8 && i <= N - 6 ? 0 : base(w)));
    expect(findGaps([scanner(through)], DEFAULT_GAP_RULE, ctx())).toMatchObject([{ days: 3, expected: 56 }]);
  });

  it("takes its thresholds as parameters", () => {
    const points = flat((i) => (i >= N - 2 ? 0 : 10));
    expect(findGaps([scanner(points)], { ...DEFAULT_GAP_RULE, minExpected: 20 }, ctx())).toHaveLength(1);
    expect(findGaps([scanner(points)], { ...DEFAULT_GAP_RULE, minDays: 3, minExpected: 20 }, ctx())).toEqual(
      [],
    );
    const early = flat((i) => (i < 10 || i >= N - 3 ? 0 : 100));
    // A silence with too short a history before it is not judged.
    expect(findGaps([scanner(early.slice(N - 13))], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("marks today, or the UTC day when that is earlier, as partial", () => {
    expect(partialFrom(new Date("2026-11-21T20:30:00Z"), "Pacific/Auckland")).toBe("2026-11-21");
    expect(partialFrom(new Date("2026-11-22T01:00:00Z"), "America/Los_Angeles")).toBe("2026-11-21");
    expect(partialFrom(new Date("2026-11-21T12:00:00Z"), "UTC")).toBe("2026-11-21");
    const periods = ctx().periods;
    expect(completenessOf([], periods, LAST).partialFrom).toBe(LAST);
    expect(completenessOf([], periods, addDays(LAST, 1)).partialFrom).toBeNull();
    expect(completenessOf([], { ...periods, from: LAST }, addDays(LAST, -1)).partialFrom).toBe(LAST);
  });
});
