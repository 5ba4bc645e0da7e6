import type { IsoDay } from "../analytics/types.ts";
import { delta } from "../insights/delta.ts";
import type { DayPoint, Digest, DigestView } from "../insights/types.ts";
import type { AskMetric } from "./types.ts";

/**
 * The numbers an answer leads with, from the digest the slash command's machinery built (and, for
 * a comparison the service's reply does not hold, the digest of the compared period).
 */

/**
 * The digest compared with another period's digest instead of the service's previous period: the
 * totals' changes and the period shown as compared with. The daily series and drivers stay the
 * digest's own (the answer says what the drivers compare with).
 */
export function withComparison(view: DigestView, other: Digest): DigestView {
  const d = view.digest;
  return {
    ...view,
    digest: {
      ...d,
      range: {
        ...d.range,
        previousFrom: other.range.from,
        previousTo: other.range.to,
        previousLabel: other.range.label,
      },
      findings: delta(d.findings.current, other.findings.current, "up-is-bad"),
      violations: delta(d.violations.current, other.violations.current, "up-is-bad"),
    },
    // The faint line is the period just before; it would mislabel a named comparison.
    previousSeries: undefined,
  };
}

/** One number of the answer: this period's value and, when known, the compared period's. */
export interface Figure {
  metric: AskMetric;
  current: number | null;
  previous: number | null;
}

function value(d: Digest, m: AskMetric): number | null {
  switch (m) {
    case "findings":
      return d.findings.current;
    case "violations":
      return d.violations.current;
    case "fixes":
      return d.fixes;
    case "merged":
      return d.mergedViolations;
    case "fixRate":
      return d.fixRate;
  }
}

/**
 * The figures for the metrics asked about (findings and violations when none was named). The
 * previous value comes from the compared period's digest when there is one, else from the
 * service's previous period, which holds findings and violations only.
 */
export function figuresOf(metrics: readonly AskMetric[], d: Digest, compared?: Digest): Figure[] {
  const asked: AskMetric[] = metrics.length > 0 ? [...metrics] : ["findings", "violations"];
  return asked.map((metric) => {
    const previous = compared
      ? value(compared, metric)
      : metric === "findings"
        ? d.findings.previous
        : metric === "violations"
          ? d.violations.previous
          : null;
    return { metric, current: value(d, metric), previous };
  });
}

/** The busiest and quietest day of a metric over the digest's days (gaps and partial days left out). */
export interface DayExtremes {
  metric: AskMetric;
  busiest: { day: IsoDay; value: number };
  quietest: { day: IsoDay; value: number };
  days: number;
}

const POINT: Record<AskMetric, (p: DayPoint) => number | null> = {
  findings: (p) => p.findings,
  violations: (p) => p.violations,
  fixes: (p) => p.fixed,
  merged: (p) => p.merged,
  fixRate: (p) => p.violations,
};

export function extremesOf(metric: AskMetric, d: Digest): DayExtremes | null {
  const m = metric === "fixRate" ? "violations" : metric;
  // Today is still being filled: its count so far is low because the day is not over, not quiet.
  const partialFrom = d.completeness?.partialFrom ?? null;
  const points = d.series
    .filter((p) => partialFrom === null || p.day < partialFrom)
    .map((p) => ({ day: p.day, value: POINT[m](p) }))
    .filter((p): p is { day: IsoDay; value: number } => p.value !== null);
  const first = points[0];
  if (!first) return null;
  let busiest = first;
  let quietest = first;
  for (const p of points) {
    if (p.value > busiest.value) busiest = p;
    if (p.value < quietest.value) quietest = p;
  }
  return { metric: m, busiest, quietest, days: points.length };
}
