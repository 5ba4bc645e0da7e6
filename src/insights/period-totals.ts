import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";

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
