import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/insights/days.ts";
import {
  type ActivitySeries,
  byImportance,
  DEFAULT_GAP_RULE,
  findGaps,
  type GapRule,
  gapIndexFrom,
  gapsFrom,
  historyDaysNeeded,
  indexGaps,
  needsHistory,
  needsHistoryFrom,
} from "../../src/insights/gaps.ts";
import {
  epochPeriods,
  indexTotals,
  type Periods,
  totalsFrom,
  totalsOf,
} from "../../src/insights/period-totals.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import { rng, seriesOf, specOf } from "./fixtures/activity.ts";

/**
 * The drivers read each slice once (GapIndex, TotalsIndex) and answer every digest from its own first
 * day on. Whatever day that is, the answers must be those of the series cut at that day: the gaps
 * (a silence that began earlier starts there, its baseline stops there), whether it needs history,
 * and the totals of both periods.
 */

const LAST = "2026-11-21";
const N = 90;
/** A short baseline as well as the default, so silences near a digest's first day are judged often. */
const SHORT: GapRule = { ...DEFAULT_GAP_RULE, baselineDays: 10, minBaselineDays: 5, minExpected: 5 };

const caseArb = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  /** Where the digest's own days start. */
  cut: fc.integer({ min: 0, max: N - 1 }),
  /** Silences planted: first day and length. */
  silences: fc.array(fc.tuple(fc.integer({ min: 0, max: N - 1 }), fc.integer({ min: 1, max: 9 })), {
    maxLength: 4,
  }),
  /** A few days the service left out. */
  unknown: fc.array(fc.integer({ min: 0, max: N - 1 }), { maxLength: 3 }),
  partial: fc.boolean(),
  short: fc.boolean(),
  /** The current period's length and how far before it the previous one ends (0: right before). */
  length: fc.integer({ min: 1, max: 30 }),
  apart: fc.integer({ min: -5, max: 5 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** A case with nothing planted: the generated series as it comes, 40-day periods back to back. */
const QUIET: Case = {
  seed: 3,
  cut: 0,
  silences: [],
  unknown: [],
  partial: false,
  short: false,
  length: 40,
  apart: 0,
};

function seriesFor(c: Case): ActivitySeries {
  const r = rng(c.seed);
  const points = seriesOf(
    specOf(
      Array.from({ length: 9 }, () => r()),
      c.seed,
      true,
    ),
    LAST,
    N,
    c.seed,
  );
  for (const [start, length] of c.silences)
    for (let i = start; i < Math.min(N, start + length); i++) {
      const p = points[i] as DayPoint;
      points[i] = { day: p.day, findings: 0, violations: 0, fixed: 0, merged: 0 };
    }
  for (const i of c.unknown) {
    const p = points[i] as DayPoint;
    points[i] = { day: p.day, findings: null, violations: null, fixed: null, merged: null };
  }
  return { dimension: "scanner", key: "sca", label: "SCA", points };
}

function periodsFor(c: Case): Periods {
  const from = addDays(LAST, 1 - c.length);
  // `apart` < 0 makes the periods overlap, which no digest does but the totals still define.
  const previousTo = addDays(from, -1 - c.apart);
  return { from, to: LAST, previousFrom: addDays(previousTo, 1 - c.length), previousTo };
}

/** A case's series, rule, partial day and periods, and the series read once (its GapIndex). */
function judged(c: Case) {
  const series = seriesFor(c);
  const partialFrom = c.partial ? LAST : null;
  return {
    series,
    rule: c.short ? SHORT : DEFAULT_GAP_RULE,
    partialFrom,
    periods: periodsFor(c),
    index: indexGaps(series, partialFrom),
  };
}

describe("indexed slices answer as the slice cut at the digest's first day", () => {
  it("gaps and the need for history, for any first day, partial day and rule", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { series, rule, partialFrom, periods, index } = judged(c);
        const cut = { ...series, points: series.points.slice(c.cut) };
        const from = gapIndexFrom(index, (cut.points[0] as DayPoint).day);
        const ctx = { periods, partialFrom };
        expect(byImportance(gapsFrom(index, from, rule, periods))).toEqual(findGaps([cut], rule, ctx));
        expect(needsHistoryFrom(index, from, rule, periods)).toBe(needsHistory(cut, rule, ctx));
      }),
      { numRuns: 3_000, seed: 5 },
    );
  });

  it("a slice read back only as far as historyDaysNeeded says is judged as over its whole history", () => {
    // The drivers fetch a silent slice's history only back to the baselines its silences read, not the
    // year, when no silence starts at the digest's first day. Reference: the whole series (the year).
    let compared = 0;
    let withGaps = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const { series, rule, partialFrom, periods, index } = judged(c);
        const first = (series.points[c.cut] as DayPoint).day;
        // A digest's days start at or before its previous period (by the rule's baseline).
        if (first > periods.previousFrom) return;
        const need = historyDaysNeeded(index, gapIndexFrom(index, first), rule, periods);
        expect(need === null).toBe(!needsHistoryFrom(index, gapIndexFrom(index, first), rule, periods));
        // None needed: the series from its first day is judged as the whole (a silence ruled out by
        // the inactive days it holds before it is no gap either way).
        if (need !== null && (!Number.isFinite(need) || c.cut - need < 0)) return;
        const short = { ...series, points: series.points.slice(c.cut - (need ?? 0)) };
        const whole = byImportance(gapsFrom(index, 0, rule, periods));
        expect(findGaps([short], rule, { periods, partialFrom })).toEqual(whole);
        compared++;
        if (whole.length > 0) withGaps++;
      }),
      { numRuns: 10_000, seed: 11 },
    );
    expect(compared).toBeGreaterThan(200);
    expect(withGaps).toBeGreaterThan(50);
  });

  it("rules a silence out by the inactive days held before it only when no baseline holding them could pass", () => {
    // Ten days of baseline, 90 % of them active: one inactive day in ten still lets a silence be a gap.
    const rule: GapRule = {
      minDays: 2,
      baselineDays: 10,
      minBaselineDays: 5,
      minActiveShare: 0.9,
      minExpected: 5,
    };
    const day = (i: number) => addDays(LAST, i - 39);
    const points: DayPoint[] = Array.from({ length: 40 }, (_, i) => {
      const quiet = i === 20 || i === 25 || i === 26;
      const n = quiet ? 0 : 10;
      return { day: day(i), findings: n, violations: 1, fixed: 0, merged: 0 };
    });
    const series: ActivitySeries = { dimension: "scanner", key: "sca", label: "SCA", points };
    const periods: Periods = { from: day(30), to: day(39), previousFrom: day(20), previousTo: day(29) };
    const whole = findGaps([series], rule, { periods, partialFrom: null });
    // Days 25–26 are a gap over the whole: nine active days of the ten before them.
    expect(whole.map((g) => [g.from, g.to])).toEqual([[day(25), day(26)]]);
    const index = indexGaps(series, null);
    // Held from day 18: one inactive day in the seven held of its baseline, so the three before
    // day 18 are asked (they might all be active), and judged with them the gap is found.
    expect(historyDaysNeeded(index, 18, rule, periods)).toBe(3);
    const cut = { ...series, points: points.slice(15) };
    expect(findGaps([cut], rule, { periods, partialFrom: null })).toEqual(whole);
    // Two inactive days held (day 18 too) leave no baseline of ten days active on nine: no history asked.
    const quieter = points.map((p, i) => (i === 18 ? { ...p, findings: 0 } : p));
    const second = indexGaps({ ...series, points: quieter }, null);
    expect(historyDaysNeeded(second, 18, rule, periods)).toBeNull();
    expect(findGaps([{ ...series, points: quieter }], rule, { periods, partialFrom: null })).toEqual([]);
  });

  it("finds gaps in the cases above (so the comparison is not between two empty lists)", () => {
    let found = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const series = seriesFor(c);
        found += findGaps([series], c.short ? SHORT : DEFAULT_GAP_RULE, {
          periods: periodsFor(c),
          partialFrom: null,
        }).length;
      }),
      { numRuns: 3_000, seed: 5 },
    );
    expect(found).toBeGreaterThan(500);
  });

  it("totals of both periods, for any first day (unknown days add nothing)", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { points } = seriesFor(c);
        const periods = periodsFor(c);
        const first = (points[c.cut] as DayPoint).day;
        expect(totalsFrom(indexTotals(points), epochPeriods(periods, first))).toEqual(
          totalsOf(points.slice(c.cut), periods),
        );
      }),
      { numRuns: 3_000, seed: 9 },
    );
  });

  it("refuses a series with a day missing, whose running sums would be read at the wrong days", () => {
    const { points } = seriesFor({ ...QUIET, seed: 4, length: 10 });
    expect(() => indexTotals([...points.slice(0, 40), ...points.slice(41)])).toThrow(/one point per day/);
    expect(indexTotals(points).length).toBe(N);
  });

  it("a first day before the series counts from its first point", () => {
    const { points } = seriesFor(QUIET);
    const periods = periodsFor(QUIET);
    expect(totalsFrom(indexTotals(points), epochPeriods(periods, addDays(LAST, -400)))).toEqual(
      totalsOf(points, periods),
    );
  });
});
