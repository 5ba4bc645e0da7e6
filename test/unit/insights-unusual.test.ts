import { describe, expect, it } from "vitest";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import {
  DEFAULT_UNUSUAL_RULE,
  dayWords,
  judgeDay,
  mad,
  median,
  weekdayBand,
} from "../../src/insights/unusual.ts";
import { poisson, rng } from "./fixtures/activity.ts";

/** 2026-11-23 is a Monday. */
const LAST = "2026-11-23";
const N = 7 * 12;

/** `n` days ending `last`, violations from `perDay(index, ISO weekday)` (null = the service left it out). */
function series(perDay: (i: number, weekday: number) => number | null, last = LAST, n = N): DayPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(last, i - (n - 1));
    const v = perDay(i, isoWeekday(day));
    return {
      day,
      violations: v,
      findings: v === null ? null : v * 2,
      fixed: v === null ? null : Math.floor(v / 3),
      merged: v === null ? null : Math.floor(v / 10),
    };
  });
}

/** A strong weekly rhythm: Mondays twice a plain weekday, weekends a tenth, Poisson noise. */
const RHYTHM = [0, 2, 1, 1, 1, 0.9, 0.1, 0.1];
function rhythm(level: number, seed: number, last = LAST, n = N): DayPoint[] {
  const r = rng(seed);
  return series((_, w) => poisson(level * (RHYTHM[w] ?? 1), r), last, n);
}

const set = (points: DayPoint[], day: string, violations: number | null) =>
  points.map((p) =>
    p.day === day ? { ...p, violations, findings: violations === null ? null : violations * 2 } : p,
  );

describe("robust statistics", () => {
  it("median and median absolute deviation", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(Number.isNaN(median([]))).toBe(true);
    expect(mad([1, 2, 3, 4, 100])).toBe(1);
    // One odd week moves a standard deviation a lot and the MAD hardly.
    expect(mad([150, 160, 170, 175, 180, 185, 190, 900])).toBeLessThan(15);
  });

  it("the band: robust spread, never narrower than counting noise or the floor, never wider than ×/÷ 2", () => {
    const b = weekdayBand([150, 170, 180, 185, 175, 190, 160, 200]);
    expect(b.median).toBe(177.5);
    expect(b.high).toBeCloseTo(177.5 + 4 * b.spread);
    expect(b.low).toBeCloseTo(177.5 - 4 * b.spread);
    // All eight weeks the same: the spread falls back on a tenth of the median, not zero.
    const flat = weekdayBand([400, 400, 400, 400, 400, 400, 400, 400]);
    expect(flat.spread).toBe(40);
    expect([flat.low, flat.high]).toEqual([240, 560]);
    // A very noisy history still cannot hide twice the median.
    const noisy = weekdayBand([100, 300, 80, 400, 90, 350, 60, 500]);
    expect(noisy.high).toBe(noisy.median * 2);
    expect(noisy.low).toBe(noisy.median / 2);
    // Counts of a few: the floor keeps the band at least 20 wide either side.
    const few = weekdayBand([2, 3, 1, 2, 4, 2, 3, 2]);
    expect(few.high).toBe(few.median + DEFAULT_UNUSUAL_RULE.floor);
    expect(few.low).toBe(0);
  });
});

describe("judging a day against its weekday", () => {
  it("a weekly rhythm without an anomaly never flags a Monday (a fixed threshold would flag every one)", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const points = rhythm(300, seed);
      const mondays = points.filter((p, i) => i >= 56 && isoWeekday(p.day) === 1);
      expect(mondays.length).toBeGreaterThanOrEqual(3);
      for (const m of mondays) {
        const j = judgeDay(points, "violations", m.day);
        expect(j, `${seed} ${m.day}`).toMatchObject({ kind: "judged", direction: "within", weekday: 1 });
        // What a threshold between a Tuesday's and a Monday's load would have called an alert.
        expect(m.violations).toBeGreaterThan(450);
      }
    }
  });

  it("a Tuesday at three times a usual Tuesday is high; at a fifth, low; the typical week is named", () => {
    const points = rhythm(300, 7);
    const tuesday = addDays(LAST, -6);
    const spike = judgeDay(set(points, tuesday, 900), "violations", tuesday);
    expect(spike).toMatchObject({ kind: "judged", direction: "high", weekday: 2, weeks: 8 });
    if (spike.kind !== "judged") throw new Error("not judged");
    expect(spike.deviations).toBeGreaterThan(4);
    expect(spike.band.low).toBeLessThan(300);
    expect(spike.band.high).toBeGreaterThan(300);
    // The earlier Tuesday closest to the median stands for "a usual Tuesday".
    const earlier = [1, 2, 3, 4, 5, 6, 7, 8].map((w) =>
      points.find((p) => p.day === addDays(tuesday, -7 * w)),
    );
    const closest = Math.min(...earlier.map((p) => Math.abs((p?.violations ?? 0) - spike.band.median)));
    expect(Math.abs(spike.typical.value - spike.band.median)).toBe(closest);
    expect(isoWeekday(spike.typical.day)).toBe(2);
    expect(judgeDay(set(points, tuesday, 60), "violations", tuesday)).toMatchObject({ direction: "low" });
  });

  it("counts of a few never alert", () => {
    const points = series((_, w) => (w === 2 ? 2 : 1));
    const tuesday = addDays(LAST, -6);
    expect(judgeDay(set(points, tuesday, 15), "violations", tuesday)).toMatchObject({ direction: "within" });
    expect(judgeDay(set(points, tuesday, 25), "violations", tuesday)).toMatchObject({ direction: "high" });
  });

  it("a day the service left out, a silent day on a busy weekday and a data gap are never judged", () => {
    const points = rhythm(300, 11);
    expect(judgeDay(set(points, LAST, null), "violations", LAST)).toMatchObject({
      kind: "unknown",
      why: "missing",
    });
    // One silent Monday: more likely missing data than a quiet day, never "unusually low".
    const silent = points.map((p) =>
      p.day === LAST ? { ...p, violations: 0, findings: 0, fixed: 0, merged: 0 } : p,
    );
    expect(judgeDay(silent, "violations", LAST)).toMatchObject({ kind: "unknown", why: "silent" });
    // Two silent days: the data-gap rule calls it a gap (an outage), and the day is not judged.
    const gap = points.map((p) =>
      p.day >= addDays(LAST, -1) ? { ...p, violations: 0, findings: 0, fixed: 0, merged: 0 } : p,
    );
    const j = judgeDay(gap, "violations", LAST);
    expect(j).toMatchObject({ kind: "unknown", why: "gap" });
    expect(j.kind === "unknown" && j.gap?.from).toBe(addDays(LAST, -1));
  });

  it("silent weeks in the baseline are left out of it; too few known weeks is no verdict", () => {
    const points = rhythm(300, 13);
    const monday = LAST;
    // Two earlier Mondays fell in an outage (Sunday to Tuesday silent): they are not "usual Mondays".
    const outage = (p: DayPoint) =>
      [14, 28].some((back) => p.day >= addDays(monday, -back - 1) && p.day <= addDays(monday, -back + 1));
    const holes = points.map((p) =>
      outage(p) ? { ...p, violations: 0, findings: 0, fixed: 0, merged: 0 } : p,
    );
    expect(judgeDay(holes, "violations", monday)).toMatchObject({
      kind: "judged",
      weeks: 6,
      direction: "within",
    });
    const young = points.slice(-7 * 5);
    expect(judgeDay(young, "violations", monday)).toMatchObject({
      kind: "unknown",
      why: "history",
      weeks: 4,
    });
  });

  it("reads findings, violations and fixes each from its own series", () => {
    const points = rhythm(300, 17);
    const j = judgeDay(points, "fixes", LAST);
    expect(j.kind === "judged" && j.value).toBe(Math.floor((points.at(-1)?.violations ?? 0) / 3));
    expect(dayWords("2026-11-17")).toBe("Tue Nov 17");
  });
});
