import { describe, expect, it } from "vitest";
import { csvCell, digestCsv } from "../../src/insights/csv.ts";
import { makeDigest, makeView } from "./fixtures/digest-view.ts";

describe("CSV export of the daily series", () => {
  it("one row per day with the digest's numbers; the rows add up to the digest's daily sums", () => {
    const view = makeView();
    const csv = digestCsv(view);
    const lines = csv.trimEnd().split("\r\n");
    const header = lines.indexOf("day,findings,violations,fixes,merged");
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 1).map((l) => l.split(","));
    expect(rows.map((r) => r[0])).toEqual(view.digest.series.map((p) => p.day));
    const sum = (i: number) => rows.reduce((s, r) => s + Number(r[i]), 0);
    const series = view.digest.series;
    expect(sum(2)).toBe(series.reduce((s, p) => s + (p.violations ?? 0), 0));
    expect(sum(3)).toBe(series.reduce((s, p) => s + (p.fixed ?? 0), 0));
    expect(lines[0]).toContain(`${view.digest.range.from} to ${view.digest.range.to}`);
    expect(csv).toContain("# Assets: all");
  });

  it("names the selected filters in the header; gaps are empty cells, never zeros", () => {
    const base = makeView();
    const view = {
      ...base,
      digest: makeDigest({
        series: base.digest.series.map((p, i) => (i === 2 ? { ...p, findings: null, violations: null } : p)),
      }),
      filters: {
        ...base.filters,
        assets: [{ value: "a1", displayValue: "payments / api" }],
        selectedAssetIds: ["a1"],
      },
    };
    const csv = digestCsv(view);
    expect(csv).toContain("# Assets: payments / api");
    const row = csv.split("\r\n").find((l) => l.startsWith(view.digest.series[2]?.day as string));
    expect(row?.split(",").slice(1, 3)).toEqual(["", ""]);
  });

  it("quotes separators and neutralises formulas", () => {
    expect(csvCell('a,"b"')).toBe('"a,""b"""');
    expect(csvCell("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvCell(null)).toBe("");
    expect(csvCell(-5)).toBe("-5");
  });
});
