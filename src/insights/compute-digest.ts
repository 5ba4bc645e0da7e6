import type { InsightsResult, IsoDay } from "../analytics/types.ts";
import { delta } from "./delta.ts";
import { completenessOf, DEFAULT_GAP_RULE, findGaps, type GapRule } from "./gaps.ts";
import { repairSeries } from "./series.ts";
import { computeTrend } from "./trend.ts";
import type { Digest, ResolvedRange } from "./types.ts";

export interface DigestOptions {
  /** First day still being filled (see partialFrom); it is marked, never ranked as a full day. */
  partialFrom?: IsoDay | null;
  gapRule?: GapRule;
}

/**
 * The digest view model of one validated insights reply for `range`: findings and violations
 * against the previous period (more is worse), fixes, fix rate, net backlog change, the daily
 * series checked and repaired, its trend, and what is known of its completeness: the data-gap rule
 * run on the digest's own series (a silence needs a baseline inside the range to be judged here;
 * the drivers judge every scanner and group over a longer window).
 */
export function computeDigest(
  result: InsightsResult,
  range: ResolvedRange,
  options: DigestOptions = {},
): Digest {
  const { summary } = result;
  const violations = delta(summary.violations.current, summary.violations.previous, "up-is-bad");
  const fixes = summary.fixes;
  const handled = violations.current + fixes;
  const { points, check } = repairSeries(result, range);
  const partialFrom = options.partialFrom ?? null;
  const gaps = findGaps(
    [{ dimension: "total", key: "*", label: "any scanner", points }],
    options.gapRule ?? DEFAULT_GAP_RULE,
    { periods: range, partialFrom },
  );
  return {
    range,
    findings: delta(summary.findings.current, summary.findings.previous, "up-is-bad"),
    violations,
    fixes,
    mergedViolations: summary.mergedViolations,
    fixRate: handled > 0 ? Math.min(1, Math.max(0, fixes / handled)) : null,
    netChange: violations.current - fixes,
    series: points,
    seriesCheck: check,
    trend: computeTrend(points, undefined, partialFrom),
    completeness: completenessOf(gaps, range, partialFrom),
  };
}
