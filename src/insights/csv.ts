import type { DigestView } from "./types.ts";

/**
 * The daily series as CSV: one row per day (findings, violations, fixes, merged), with the range,
 * the comparison period and the filters in `#` lines above the header so a file read on its own
 * still says what it holds. Gaps stay empty cells, never zeros. Pure.
 */

/** RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let s = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const line = (cells: (string | number | null)[]) => cells.map(csvCell).join(",");

/** Names of the selected filters, or "all" when none is selected. */
function selected(ids: string[], options: { value: string; displayValue: string }[] | null): string {
  if (ids.length === 0) return "all";
  const names = new Map((options ?? []).map((o) => [o.value, o.displayValue]));
  return ids.map((id) => names.get(id) ?? id).join("; ");
}

export function digestCsv(view: DigestView): string {
  const { digest, filters } = view;
  const r = digest.range;
  const meta = [
    `# Insights daily series, ${r.from} to ${r.to} (${r.tz})`,
    `# Compared with ${r.previousFrom} to ${r.previousTo}: findings ${digest.findings.previous} -> ${digest.findings.current}, violations ${digest.violations.previous} -> ${digest.violations.current}`,
    `# Totals: fixes ${digest.fixes}, merged violations ${digest.mergedViolations}`,
    `# Assets: ${selected(filters.selectedAssetIds, filters.assets)}`,
    `# Scanners: ${selected(filters.selectedScannerIds, filters.scanners)}`,
    `# Generated ${view.generatedAt}`,
  ].map((m) => m.replace(/[\r\n]+/g, " "));
  const rows = digest.series.map((p) => line([p.day, p.findings, p.violations, p.fixed, p.merged]));
  return `${[...meta, line(["day", "findings", "violations", "fixes", "merged"]), ...rows].join("\r\n")}\r\n`;
}
