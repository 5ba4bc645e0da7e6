import { describe, expect, it } from "vitest";
import { accountFor, dailyCounts, SCENARIO_KEYS, SCENARIOS } from "../../sandbox/analytics/index.ts";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import { judgeDay, type UnusualMeasure } from "../../src/insights/unusual.ts";
import { oracleSeries } from "../fixtures/oracle-series.ts";

/**
 * The emulator's weekly-rhythm accounts, through its own oracle: `scenario-weekly` has a strong
 * rhythm and nothing unusual in it; `scenario-unusual-day` is the same with yesterday's payments at
 * ten times their usual findings, unusual whatever the weekday.
 */

const TODAY = "2026-11-25"; // a Wednesday: yesterday is a Tuesday

const series = (key: string, last: string, days: number) => oracleSeries(key, last, days, TODAY);

const MEASURES: UnusualMeasure[] = ["violations", "findings", "fixes"];

describe("weekly-rhythm emulator accounts", () => {
  it("scenario-weekly: busy Mondays and quiet weekends, and not one day unusual in 12 weeks", () => {
    const last = addDays(TODAY, -1);
    const points = series(SCENARIO_KEYS.weekly, last, 7 * 20);
    const judged = points.slice(7 * 8);
    expect(judged).toHaveLength(7 * 12);
    for (const p of judged)
      for (const m of MEASURES)
        expect(judgeDay(points, m, p.day), `${m} ${p.day}`).toMatchObject({
          kind: "judged",
          direction: "within",
        });
    const mean = (w: number) => {
      const v = judged.filter((p) => isoWeekday(p.day) === w).map((p) => p.violations ?? 0);
      return v.reduce((a, b) => a + b, 0) / v.length;
    };
    // A rhythm a fixed threshold cannot follow: Mondays near twice a Tuesday, Sundays a sixth of it.
    expect(mean(1) / mean(2)).toBeGreaterThan(1.6);
    expect(mean(7) / mean(2)).toBeLessThan(0.2);
  });

  it("scenario-unusual-day: yesterday is unusually high, the days around it are not", () => {
    const yesterday = addDays(TODAY, -1);
    const points = series(SCENARIO_KEYS.unusualDay, TODAY, 7 * 9 + 1);
    for (const m of ["violations", "findings"] as const)
      expect(judgeDay(points, m, yesterday), m).toMatchObject({ kind: "judged", direction: "high" });
    for (const day of [addDays(TODAY, -8), addDays(TODAY, -2), TODAY])
      expect(judgeDay(points, "violations", day), day).toMatchObject({ direction: "within" });
    // The planted change is payments/* alone, on that day alone.
    const account = accountFor(SCENARIO_KEYS.unusualDay);
    if (!account) throw new Error("no account");
    const payments = account.assets
      .filter((a) => a.displayValue.startsWith("payments /"))
      .map((a) => a.value);
    const others = account.assets.filter((a) => !a.displayValue.startsWith("payments /")).map((a) => a.value);
    const plain = accountFor(SCENARIO_KEYS.weekly);
    expect(SCENARIOS.unusualDay.target).toEqual({ dimension: "group", key: "payments" });
    const on = (ids: string[], day: string) => dailyCounts(account, day, ids, undefined, TODAY).findings;
    expect(on(payments, yesterday)).toBeGreaterThan(3 * on(payments, addDays(yesterday, -7)));
    expect(on(others, yesterday)).toBeLessThan(1.5 * on(others, addDays(yesterday, -7)));
    expect(plain?.assets.length).toBe(account.assets.length);
  });

  // The planted scenarios hold whatever day the emulator's clock reads: every weekday as "today"
  // (so the planted day is each weekday once, weekends included), a month end, a year end and a
  // leap day.
  const TODAYS = [
    ...Array.from({ length: 7 }, (_, i) => addDays("2026-12-06", i)), // Sunday … Saturday
    "2026-12-01", // yesterday a month end
    "2027-01-01", // yesterday a year end
    "2028-03-01", // yesterday a leap day
    "2027-03-29", // yesterday Europe's spring DST day
  ];
  it.each(TODAYS)("on %s: the planted day is unusual, the days around it and a data gap are not", (today) => {
    const yesterday = addDays(today, -1);
    const spike = oracleSeries(SCENARIO_KEYS.unusualDay, today, 7 * 9 + 1, today);
    for (const m of ["violations", "findings"] as const)
      expect(judgeDay(spike, m, yesterday), `${m} ${yesterday}`).toMatchObject({
        kind: "judged",
        direction: "high",
      });
    for (const day of [addDays(today, -8), addDays(today, -2), today])
      expect(judgeDay(spike, "violations", day), day).toMatchObject({ direction: "within" });
    // The outage's totals alone look unusually low on any weekday (the alert must then find the gap).
    const outage = oracleSeries(SCENARIO_KEYS.weeklyOutage, yesterday, 57, today);
    expect(judgeDay(outage, "violations", yesterday)).toMatchObject({ kind: "judged", direction: "low" });
  });
});
