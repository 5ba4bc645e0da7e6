import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DailyActivity, DailyMetric } from "../../src/analytics/types.ts";
import { addDays, dayOfTimeStamp, enumerateDays, repairSeries } from "../../src/insights/index.ts";

const m = (day: string, findings: number, violations: number, suffix = "T00:00:00"): DailyMetric => ({
  timeStamp: `${day}${suffix}`,
  findings,
  violations,
});
const a = (
  day: string,
  fixedViolations: number,
  mergedViolations: number,
  suffix = "T00:00:00",
): DailyActivity => ({
  timeStamp: `${day}${suffix}`,
  fixedViolations,
  mergedViolations,
});
const range = { from: "2026-11-01", to: "2026-11-03" };
const days3 = ["2026-11-01", "2026-11-02", "2026-11-03"];
const goodMetric = () => days3.map((d, i) => m(d, 10 * (i + 1), i + 1));
const goodActivity = () => days3.map((d, i) => a(d, i, 0));

describe("dayOfTimeStamp", () => {
  it.each([
    ["2026-11-15T00:00:00", "2026-11-15"],
    ["2026-11-15T00:00:00Z", "2026-11-15"],
    ["2026-11-15T00:00:00.000", "2026-11-15"],
    ["2026-11-15T00:00:00.000Z", "2026-11-15"],
    ["2026-11-15", null],
    ["2026-11-15T05:00:00", null],
    ["2026-11-15T00:00:00+02:00", null],
    ["2026-02-30T00:00:00", null],
    ["15/11/2026", null],
    ["", null],
    [null, null],
    [20261115, null],
  ])("%j → %j", (stamp, day) => {
    expect(dayOfTimeStamp(stamp)).toBe(day);
  });
});

describe("repairSeries", () => {
  it("passes a good series through and says ok", () => {
    const { points, check } = repairSeries(
      { dailyMetric: goodMetric(), dailyActivity: goodActivity() },
      range,
    );
    expect(points).toEqual([
      { day: "2026-11-01", findings: 10, violations: 1, fixed: 0, merged: 0 },
      { day: "2026-11-02", findings: 20, violations: 2, fixed: 1, merged: 0 },
      { day: "2026-11-03", findings: 30, violations: 3, fixed: 2, merged: 0 },
    ]);
    expect(check).toEqual({
      ok: true,
      missingDays: [],
      droppedEntries: 0,
      unsorted: false,
      badTimeStamps: 0,
    });
  });

  it("shows a missing day as a gap, never as zero", () => {
    const metric = goodMetric().filter((e) => !e.timeStamp.startsWith("2026-11-02"));
    const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: goodActivity() }, range);
    expect(points[1]).toEqual({ day: "2026-11-02", findings: null, violations: null, fixed: 1, merged: 0 });
    expect(check).toMatchObject({ ok: false, missingDays: ["2026-11-02"], droppedEntries: 0 });
  });

  it("reports days missing from either list once", () => {
    const metric = goodMetric().slice(1);
    const activity = goodActivity().slice(0, 2);
    const { check } = repairSeries({ dailyMetric: metric, dailyActivity: activity }, range);
    expect(check.missingDays).toEqual(["2026-11-01", "2026-11-03"]);
  });

  it("drops days outside the range", () => {
    const metric = [m("2026-10-31", 99, 99), ...goodMetric(), m("2026-11-04", 99, 99)];
    const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: goodActivity() }, range);
    expect(points.map((p) => p.violations)).toEqual([1, 2, 3]);
    expect(check).toMatchObject({ ok: false, droppedEntries: 2, unsorted: false, missingDays: [] });
  });

  it("keeps the first of duplicates and counts the rest", () => {
    const metric = [...goodMetric(), m("2026-11-02", 77, 77), m("2026-11-02", 88, 88)];
    const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: goodActivity() }, range);
    expect(points[1]?.violations).toBe(2);
    expect(check.droppedEntries).toBe(2);
    expect(check.ok).toBe(false);
  });

  it("sorts an unsorted reply and flags it", () => {
    const metric = goodMetric().reverse();
    const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: goodActivity() }, range);
    expect(points.map((p) => p.day)).toEqual(days3);
    expect(points.map((p) => p.violations)).toEqual([1, 2, 3]);
    expect(check).toMatchObject({ ok: false, unsorted: true, droppedEntries: 0 });
  });

  it("tolerates Z and .000 stamps but counts malformed ones", () => {
    const metric = [
      m("2026-11-01", 10, 1, "T00:00:00Z"),
      m("2026-11-02", 20, 2, "T00:00:00.000"),
      m("2026-11-03", 30, 3, "T12:00:00"),
    ];
    const activity = [...goodActivity(), { ...a("x", 1, 1), timeStamp: "yesterday" }];
    const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: activity }, range);
    expect(points.map((p) => p.violations)).toEqual([1, 2, null]);
    expect(check).toMatchObject({ ok: false, badTimeStamps: 2, missingDays: ["2026-11-03"] });
  });

  it("gives every day of the range for empty lists", () => {
    const { points, check } = repairSeries({ dailyMetric: [], dailyActivity: [] }, range);
    expect(points.map((p) => [p.day, p.violations, p.fixed])).toEqual(days3.map((d) => [d, null, null]));
    expect(check.missingDays).toEqual(days3);
  });

  it("treats a non-finite count as unknown", () => {
    const metric = [m("2026-11-01", Number.NaN, 1), ...goodMetric().slice(1)];
    const { points } = repairSeries({ dailyMetric: metric, dailyActivity: goodActivity() }, range);
    expect(points[0]).toMatchObject({ findings: null, violations: 1 });
  });

  it("reads a reply in day order as it repairs the same entries out of order", () => {
    const metric = [
      m("2026-11-01", 4, 2, "T00:00:00Z"),
      m("2026-11-02", Number.NaN, 0),
      m("2026-11-03", 7, 1),
    ];
    const activity = [a("2026-11-01", 1, 0), a("2026-11-02", 0, 3, "T00:00:00.000"), a("2026-11-03", 2, 2)];
    const inOrder = repairSeries({ dailyMetric: metric, dailyActivity: activity }, range);
    const reversed = repairSeries(
      { dailyMetric: [...metric].reverse(), dailyActivity: [...activity].reverse() },
      range,
    );
    expect(inOrder.points).toStrictEqual(reversed.points);
    expect(inOrder.check).toStrictEqual({ ...reversed.check, ok: true, unsorted: false });
    expect(reversed.check.unsorted).toBe(true);
    // One list a day short: not in order day for day, so the gap is found as before.
    const short = repairSeries({ dailyMetric: metric.slice(0, 2), dailyActivity: activity }, range);
    expect(short.check.missingDays).toEqual(["2026-11-03"]);
    expect(short.points[2]).toMatchObject({ findings: null, violations: null, fixed: 2, merged: 2 });
  });
});

describe("repairSeries properties", () => {
  const start = fc.integer({ min: 0, max: 3650 }).map((n) => addDays("2020-01-01", n));
  const series = fc
    .record({ from: start, days: fc.integer({ min: 1, max: 120 }), seed: fc.integer() })
    .map(({ from, days, seed }) => {
      const to = addDays(from, days - 1);
      const list = enumerateDays(from, to);
      const metric = list.map((d, i) => m(d, (seed + i * 7919) >>> 8, (seed ^ (i * 31)) >>> 12));
      const activity = list.map((d, i) => a(d, (seed + i) >>> 20, i % 5));
      return { from, to, days, metric, activity };
    });

  it("any shuffle or deletion gives one ascending point per day with the input's values", () => {
    fc.assert(
      fc.property(
        series.chain((s) =>
          fc.record({
            s: fc.constant(s),
            metric: fc.shuffledSubarray(s.metric),
            activity: fc.shuffledSubarray(s.activity),
          }),
        ),
        ({ s, metric, activity }) => {
          const { points, check } = repairSeries({ dailyMetric: metric, dailyActivity: activity }, s);
          expect(points).toHaveLength(s.days);
          expect(points.map((p) => p.day)).toEqual(enumerateDays(s.from, s.to));
          const byDayM = new Map(s.metric.map((e) => [e.timeStamp.slice(0, 10), e]));
          const byDayA = new Map(s.activity.map((e) => [e.timeStamp.slice(0, 10), e]));
          const keptM = new Set(metric.map((e) => e.timeStamp.slice(0, 10)));
          const keptA = new Set(activity.map((e) => e.timeStamp.slice(0, 10)));
          for (const p of points) {
            expect(p.violations).toBe(keptM.has(p.day) ? byDayM.get(p.day)?.violations : null);
            expect(p.findings).toBe(keptM.has(p.day) ? byDayM.get(p.day)?.findings : null);
            expect(p.fixed).toBe(keptA.has(p.day) ? byDayA.get(p.day)?.fixedViolations : null);
            expect(p.merged).toBe(keptA.has(p.day) ? byDayA.get(p.day)?.mergedViolations : null);
          }
          expect(check.missingDays).toEqual(
            points.filter((p) => !keptM.has(p.day) || !keptA.has(p.day)).map((p) => p.day),
          );
          expect(check.droppedEntries).toBe(0);
          expect(check.badTimeStamps).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("extra and duplicate entries appended after the good ones never change a value", () => {
    fc.assert(
      fc.property(
        series,
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 0, max: 5 }),
        (s, offset, dupes) => {
          const extra = [m(addDays(s.to, offset), 1, 1), m(addDays(s.from, -offset), 2, 2)];
          const duplicates = s.metric.slice(0, dupes).map((e) => ({ ...e, violations: e.violations + 1 }));
          const { points, check } = repairSeries(
            { dailyMetric: [...s.metric, ...extra, ...duplicates], dailyActivity: s.activity },
            s,
          );
          expect(points.map((p) => p.violations)).toEqual(s.metric.map((e) => e.violations));
          expect(check.droppedEntries).toBe(2 + Math.min(dupes, s.days));
          expect(check.missingDays).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
