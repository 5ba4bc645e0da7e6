import type { DigestView } from "./types.ts";

/**
 * The daily series as CSV (RFC 4180): the header `day,findings,violations,fixes,merged` on the first
 * line, then one row per day, CRLF line ends. What the file holds (range, comparison, filters,
 * generation time) is not in the file, where CSV readers would take it for data, but in its name and
 * in the message or terminal that carries it ({@link csvAbout}). Gaps stay empty cells, never zeros.
 * Pure.
 */

export const CSV_COLUMNS = ["day", "findings", "violations", "fixes", "merged"] as const;

/** RFC 4180 quoting, and no cell a spreadsheet would run as a formula. */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let s = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const line = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(",");

export function digestCsv(view: DigestView): string {
  const rows = view.digest.series.map((p) => line([p.day, p.findings, p.violations, p.fixed, p.merged]));
  return `${[line(CSV_COLUMNS), ...rows].join("\r\n")}\r\n`;
}

/** One fact about an exported file: a label and its value, shown as "Label: value". */
export interface CsvFact {
  label: string;
  value: string;
}

/** Control characters (newlines, escapes) become spaces: every fact is shown on one line. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
const oneLine = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, " ").trim();

/** The selected filters by name (asset groups as `group/*`); empty when none is selected. */
function selectedNames(view: DigestView, kind: "assets" | "scanners"): string[] {
  const f = view.filters;
  const options = kind === "assets" ? f.assets : f.scanners;
  const ids = kind === "assets" ? f.selectedAssetIds : f.selectedScannerIds;
  const groups = kind === "assets" ? (f.selectedGroups ?? []) : [];
  const names = new Map((options ?? []).map((o) => [o.value, o.displayValue]));
  return [...groups.map((g) => `${g}/*`), ...ids.map((id) => names.get(id) || id)].map(oneLine);
}

/** What an exported file holds, for the Slack message that carries it and the CLI's stderr. */
export function csvAbout(view: DigestView): {
  facts: CsvFact[];
  assets: string[];
  scanners: string[];
} {
  const { digest } = view;
  const r = digest.range;
  const assets = selectedNames(view, "assets");
  const scanners = selectedNames(view, "scanners");
  return {
    assets,
    scanners,
    facts: [
      { label: "Range", value: `${r.from} to ${r.to} (${r.tz})` },
      {
        label: "Compared with",
        value: `${r.previousFrom} to ${r.previousTo} (findings ${digest.findings.previous} -> ${digest.findings.current}, violations ${digest.violations.previous} -> ${digest.violations.current})`,
      },
      { label: "Totals", value: `fixes ${digest.fixes}, merged violations ${digest.mergedViolations}` },
      { label: "Assets", value: assets.length === 0 ? "all" : assets.join("; ") },
      { label: "Scanners", value: scanners.length === 0 ? "all" : scanners.join("; ") },
      { label: "Generated", value: oneLine(view.generatedAt) },
    ],
  };
}

/** Longest run of filter words in a file name, so names stay well under every filesystem's limit. */
const NAME_FILTERS_MAX = 80;

/** A filter name as file-name characters: ASCII letters and digits, words joined by `-`. */
function slug(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The file name of a digest's series: `insights_<from>_<to>[_<filter>…].csv`, e.g.
 * `insights_2026-11-01_2026-11-07_payments-api.csv`. Only `[a-z0-9_.-]`, so it is safe in every
 * filesystem, shell and Slack; filters that do not fit are counted (`_and-3-more`).
 */
export function csvFilename(view: DigestView): string {
  const r = view.digest.range;
  const { assets, scanners } = csvAbout(view);
  const words = [...assets, ...scanners].map(slug).filter((w) => w !== "");
  const kept: string[] = [];
  let length = 0;
  for (const w of words) {
    const word = w.slice(0, NAME_FILTERS_MAX - 1);
    if (length + word.length + 1 > NAME_FILTERS_MAX) continue;
    kept.push(word);
    length += word.length + 1;
  }
  const dropped = assets.length + scanners.length - kept.length;
  const tail = [...kept, ...(dropped > 0 ? [`and-${dropped}-more`] : [])];
  return `${["insights", r.from, r.to, ...tail].join("_")}.csv`;
}
