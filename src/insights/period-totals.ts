import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";
import { epochDay } from "./days.ts";

/** The three counts the drivers explain. More findings or violations is bad news, more fixes good. */
export const MEASURES = ["violations", "findings", "fixes"] as const;
export type Measure = (typeof MEASURES)[number];

/** One count over the current period and the equally long period before it. */
export interface PeriodPair {
  current: number;
  previous: number;
}

export type MeasureTotals = Record<Measure, PeriodPair>;

/** Both periods of a digest, inclusive days. */
export interface Periods {
  from: IsoDay;
  to: IsoDay;
  previousFrom: IsoDay;
  previousTo: IsoDay;
}

function emptyTotals(): MeasureTotals {
  return {
    violations: { current: 0, previous: 0 },
    findings: { current: 0, previous: 0 },
    fixes: { current: 0, previous: 0 },
  };
}

/**
 * Sums a daily series over both periods. A missing day counts as nothing here: the gap itself is
 * reported by the series check and by the data-gap rule, never hidden as a zero in the headline.
 *
 * @example totalsOf(points, range).violations // { current: 321, previous: 280 }
 */
export function totalsOf(points: readonly DayPoint[], periods: Periods): MeasureTotals {
  const out = emptyTotals();
  for (const p of points) {
    const which =
      p.day >= periods.from && p.day <= periods.to
        ? "current"
        : p.day >= periods.previousFrom && p.day <= periods.previousTo
          ? "previous"
          : null;
    if (which === null) continue;
    out.violations[which] += p.violations ?? 0;
    out.findings[which] += p.findings ?? 0;
    out.fixes[which] += p.fixed ?? 0;
  }
  return out;
}

/**
 * Running sums of a series of consecutive days (one point per day, ascending, as the drivers keep
 * each slice), so the totals over any days of it cost a few subtractions: the drivers sum every
 * slice over each digest's periods, and a bucket's digests share one series per slice.
 */
export interface TotalsIndex {
  /** Epoch day of the first point; the series has `length` days from it. */
  first: number;
  length: number;
  /** sums[k][i]: the measure's total over the first i days (a missing count adds nothing). */
  sums: Record<Measure, Float64Array>;
}

/** Indexes `points`, which must hold consecutive days in ascending order. */
export function indexTotals(points: readonly DayPoint[]): TotalsIndex {
  const n = points.length;
  const sums = {
    violations: new Float64Array(n + 1),
    findings: new Float64Array(n + 1),
    fixes: new Float64Array(n + 1),
  };
  for (let i = 0; i < n; i++) {
    const p = points[i] as DayPoint;
    sums.violations[i + 1] = (sums.violations[i] as number) + (p.violations ?? 0);
    sums.findings[i + 1] = (sums.findings[i] as number) + (p.findings ?? 0);
    sums.fixes[i + 1] = (sums.fixes[i] as number) + (p.fixed ?? 0);
  }
  const first = n > 0 ? epochDay((points[0] as DayPoint).day) : 0;
  // Days are found by their distance from the first: a series with a day missing would shift every
  // later total, so it is refused rather than summed.
  if (n > 0 && epochDay((points[n - 1] as DayPoint).day) !== first + n - 1)
    throw new RangeError(
      `indexTotals needs one point per day: ${n} points from ${(points[0] as DayPoint).day}`,
    );
  return { first, length: n, sums };
}

/** Both periods, and the first day a digest's series starts on, as epoch days (worked out once per digest). */
export interface EpochPeriods {
  from: number;
  to: number;
  previousFrom: number;
  previousTo: number;
  start: number;
}

export const epochPeriods = (periods: Periods, start: IsoDay): EpochPeriods => ({
  from: epochDay(periods.from),
  to: epochDay(periods.to),
  previousFrom: epochDay(periods.previousFrom),
  previousTo: epochDay(periods.previousTo),
  start: epochDay(start),
});

/**
 * What `totalsOf` gives for the indexed days from `p.start` on: a day of both periods counts as
 * current, as there.
 */
export function totalsFrom(index: TotalsIndex, p: EpochPeriods): MeasureTotals {
  const out = emptyTotals();
  const lo = Math.max(p.start, index.first);
  const hi = index.first + index.length - 1;
  const add = (which: keyof PeriodPair, a: number, b: number) => {
    const from = Math.max(a, lo) - index.first;
    const to = Math.min(b, hi) - index.first;
    if (to < from) return;
    for (const m of MEASURES)
      out[m][which] += (index.sums[m][to + 1] as number) - (index.sums[m][from] as number);
  };
  add("current", p.from, p.to);
  // The previous period's days outside the current one (the two never overlap in a digest; this
  // keeps the answer totalsOf's when they do).
  add("previous", p.previousFrom, Math.min(p.previousTo, p.from - 1));
  add("previous", Math.max(p.previousFrom, p.to + 1), p.previousTo);
  return out;
}

/** Day-by-day sum of series over the same days (chunks of one slice, or parts of a window). */
export function addSeries(a: readonly DayPoint[], b: readonly DayPoint[]): DayPoint[] {
  const byDay = new Map(b.map((p) => [p.day, p]));
  const plus = (x: number | null, y: number | null | undefined) =>
    x === null || y === null || y === undefined ? null : x + y;
  return a.map((p) => {
    const q = byDay.get(p.day);
    return {
      day: p.day,
      findings: plus(p.findings, q?.findings),
      violations: plus(p.violations, q?.violations),
      fixed: plus(p.fixed, q?.fixed),
      merged: plus(p.merged, q?.merged),
    };
  });
}
