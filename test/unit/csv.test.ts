import { describe, expect, it } from "vitest";
import { csvAbout, csvCell, csvFilename, digestCsv } from "../../src/insights/csv.ts";
import type { DigestView } from "../../src/insights/types.ts";
import { exportComment } from "../../templates/export-comment.ts";
import { HEADER, readCsv } from "../fixtures/csv.ts";
import { makeDigest, makeView } from "./fixtures/digest-view.ts";

/** The view with some filters selected by id, named as the service names them. */
function filtered(assets: { value: string; displayValue: string }[], scanners: string[] = []): DigestView {
  const base = makeView();
  return {
    ...base,
    filters: {
      ...base.filters,
      assets,
      selectedAssetIds: assets.map((a) => a.value),
      scanners: scanners.map((s) => ({ value: s, displayValue: s })),
      selectedScannerIds: scanners,
    },
  };
}

describe("CSV export of the daily series", () => {
  it("starts with the header, then one row per day; csv-parse reads it and the columns add up to the digest", () => {
    const view = makeView();
    const csv = digestCsv(view);
    expect(csv.split("\r\n")[0]).toBe("day,findings,violations,fixes,merged");
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(csv.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const { header, rows, records, sums } = readCsv(csv);
    expect(header).toEqual(HEADER);
    expect(rows.map((r) => r[0])).toEqual(view.digest.series.map((p) => p.day));
    const series = view.digest.series;
    const total = (f: (p: (typeof series)[number]) => number | null) =>
      series.reduce((s, p) => s + (f(p) ?? 0), 0);
    expect(sums).toEqual([
      total((p) => p.findings),
      total((p) => p.violations),
      total((p) => p.fixed),
      total((p) => p.merged),
    ]);
    expect(records[0]).toEqual({
      day: series[0]?.day,
      findings: String(series[0]?.findings),
      violations: String(series[0]?.violations),
      fixes: String(series[0]?.fixed),
      merged: String(series[0]?.merged),
    });
  });

  it("gaps are empty cells, never zeros; nothing but the header and the days is in the file", () => {
    const base = makeView();
    const view = {
      ...filtered([{ value: "a1", displayValue: "payments / api" }]),
      digest: makeDigest({
        series: base.digest.series.map((p, i) => (i === 2 ? { ...p, findings: null, violations: null } : p)),
      }),
    };
    const csv = digestCsv(view);
    const { rows } = readCsv(csv);
    expect(rows[2]?.slice(1, 3)).toEqual(["", ""]);
    expect(rows).toHaveLength(view.digest.series.length);
    expect(csv).not.toContain("payments");
  });

  it("quotes separators and neutralises formulas (RFC 4180 quoting, read back intact)", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell("line\nbreak")).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe("");
    expect(csvCell(-5)).toBe("-5");
  });
});

describe("what the file holds, outside the file", () => {
  it("range, comparison, totals, filters by name and generation time", () => {
    const view = filtered(
      [
        { value: "a1", displayValue: "payments / api" },
        { value: "a2", displayValue: "web / app" },
      ],
      ["semgrep"],
    );
    const { facts } = csvAbout(view);
    const d = view.digest;
    expect(facts).toEqual([
      { label: "Range", value: "2026-11-15 to 2026-11-21 (Europe/Berlin)" },
      {
        label: "Compared with",
        value: `2026-11-08 to 2026-11-14 (findings ${d.findings.previous} -> ${d.findings.current}, violations ${d.violations.previous} -> ${d.violations.current})`,
      },
      { label: "Totals", value: `fixes ${d.fixes}, merged violations ${d.mergedViolations}` },
      { label: "Assets", value: "payments / api; web / app" },
      { label: "Scanners", value: "semgrep" },
      { label: "Generated", value: view.generatedAt },
    ]);
  });

  it("asset groups a digest was narrowed to are named too; control characters never reach a line", () => {
    const base = filtered([{ value: "a1", displayValue: "evil\r\nname\u001b[31m" }]);
    const view = { ...base, filters: { ...base.filters, selectedGroups: ["payments"] } };
    const assets = csvAbout(view).facts.find((f) => f.label === "Assets")?.value;
    expect(assets).toBe("payments/*; evil name [31m");
    expect(csvFilename(view)).toBe("insights_2026-11-15_2026-11-21_payments_evil-name-31m.csv");
  });

  it("the file name: range and filters in safe characters only, bounded, the rest counted", () => {
    expect(csvFilename(makeView())).toBe("insights_2026-11-15_2026-11-21.csv");
    expect(csvFilename(filtered([{ value: "a1", displayValue: "payments" }]))).toBe(
      "insights_2026-11-15_2026-11-21_payments.csv",
    );
    const hostile = filtered(
      [
        { value: "a1", displayValue: "../../etc/passwd" },
        { value: "a2", displayValue: "Zürich / Ünïcödé 🚀" },
        { value: "a3", displayValue: "🚀🚀" },
        { value: "a4", displayValue: "x".repeat(300) },
      ],
      ["semgrep"],
    );
    const name = csvFilename(hostile);
    expect(name).toMatch(/^[a-z0-9_.-]+$/);
    expect(name.length).toBeLessThanOrEqual(140);
    expect(name).toBe("insights_2026-11-15_2026-11-21_etc-passwd_zurich-unicode_semgrep_and-2-more.csv");
  });

  it("the Slack message that carries the file says what it holds, escaped and bounded", () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      value: `a${i}`,
      displayValue: `<group ${i}> & ${"n".repeat(300)}`,
    }));
    const view = filtered(many);
    const text = exportComment(view, "U123");
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      ":page_facing_up: Daily findings, violations, fixes and merged violations, Nov 15 – Nov 21, 2026 (7 days), exported by <@U123>.",
    );
    expect(lines.slice(1).map((l) => /^\*([^*]+):\*/.exec(l)?.[1])).toEqual([
      "Range",
      "Compared with",
      "Totals",
      "Assets",
      "Scanners",
      "Generated",
    ]);
    expect(text).toContain("*Range:* 2026-11-15 to 2026-11-21 (Europe/Berlin)");
    expect(text).toContain("*Compared with:* 2026-11-08 to 2026-11-14 (findings 1102 -&gt; 1234");
    expect(text).toContain("+15 more");
    expect(text).not.toMatch(/<group/);
    expect(text.length).toBeLessThan(3_000);
  });
});
