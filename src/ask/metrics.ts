import type { Sentence } from "./sentence.ts";
import type { AskMetric } from "./types.ts";

/**
 * The numbers a question asks about. "Vulnerabilities" and "issues" are what people call findings;
 * the answer's understood line says "Findings", so the reading is visible.
 */
const METRIC_PATTERNS: [string, AskMetric][] = [
  ["fix|fixes|remediation rate|rates", "fixRate"],
  ["fix - rate|rates", "fixRate"],
  ["fixrate", "fixRate"],
  ["merged violations|violation", "merged"],
  // "violations (that) got merged": the same number said the other way round.
  ["violations|violation that|which? got|get|were|was|are|is|being merged", "merged"],
  ["merged|merges|merge", "merged"],
  // "how many violations did we fix", "issues that were remediated": the fixes (of those).
  [
    "findings|finding|vulnerabilities|vulnerability|issues|issue|violations|violation that|which? did|have|has|had|were|was|got|get|are|been we|they|you? fix|fixed|remediated|resolved",
    "fixes",
  ],
  ["violations|violation", "violations"],
  ["findings|finding|vulnerabilities|vulnerability|issues|issue", "findings"],
  // "fixed findings", "remediated violations": the fixes, said as what was fixed.
  [
    "fixed|remediated|resolved findings|finding|vulnerabilities|vulnerability|issues|issue|violations|violation",
    "fixes",
  ],
  ["fixes|fix|fixed|remediated|remediations|remediation|resolved", "fixes"],
];

export function metricAt(s: Sentence, i: number): { len: number; metric: AskMetric } | null {
  for (const [pattern, metric] of METRIC_PATTERNS) {
    const len = s.match(i, pattern);
    if (len > 0) return { len, metric };
  }
  return null;
}

/** How a metric is named in answers. */
export const METRIC_NAMES: Record<AskMetric, string> = {
  findings: "Findings",
  violations: "Violations",
  fixes: "Fixes",
  fixRate: "Fix rate",
  merged: "Merged violations",
};
