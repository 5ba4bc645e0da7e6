import type { InsightsResult } from "../analytics/types.ts";
import { delta } from "./delta.ts";
import { repairSeries } from "./series.ts";
import { computeTrend } from "./trend.ts";
import type { Digest, ResolvedRange } from "./types.ts";

/**
 * The digest view model of one validated insights reply for `range`: findings and violations
 * against the previous period (more is worse), fixes, fix rate, net backlog change, the daily
 * series checked and repaired, and its trend.
 */
export function computeDigest(result: InsightsResult, range: ResolvedRange): Digest {
  const { summary } = result;
  const violations = delta(summary.violations.current, summary.violations.previous, "up-is-bad");
  const fixes = summary.fixes;
  const handled = violations.current + fixes;
  const { points, check } = repairSeries(result, range);
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
    trend: computeTrend(points),
  };
}
