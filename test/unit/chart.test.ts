import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import {
  buildChartSvg,
  type ChartInput,
  createChartRenderer,
  renderChartPng,
} from "../../src/chart/index.ts";
import { SERIES, THEME } from "../../src/chart/theme.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { countColour, decodePng, distinctColours, hasPngSignature, makeSeries } from "./chart-helpers.ts";
import { makeView } from "./fixtures/digest-view.ts";

const renderer = createChartRenderer();
const colour = (key: string): string => SERIES.find((s) => s.key === key)?.color ?? "";

/** Path data of one series' line, found by its stroke colour. */
function pathOf(svg: string, key: string): string {
  const match = new RegExp(`<path d="([^"]*)" fill="none" stroke="${colour(key)}"`).exec(svg);
  return match?.[1] ?? "";
}

function tickLabels(svg: string): string[] {
  return [...svg.matchAll(/text-anchor="end">([^<]*)</g)].map((m) => m[1] ?? "");
}

describe("renderChartPng", () => {
  it("renders an empty series as an 800×400 PNG that says there is no data", () => {
    const png = decodePng(renderer.render({ title: "Last 7 days", series: [] }));
    expect([png.width, png.height]).toEqual([800, 400]);
    expect(distinctColours(png)).toBeGreaterThan(10);
    // The message is drawn with the bundled font: with no font loaded this box would be blank.
    expect(countColour(png, THEME.muted, { x0: 250, y0: 180, x1: 560, y1: 250 }, 40)).toBeGreaterThan(100);
    // Below the header (whose legend shows the colours) no line is drawn.
    for (const s of SERIES) expect(countColour(png, s.color, { x0: 0, y0: 70, x1: 800, y1: 400 })).toBe(0);
  });

  it("renders 365 days with all three series visible", () => {
    const bytes = renderChartPng({ title: "Last 365 days", subtitle: "2026", series: makeSeries(365) });
    expect(hasPngSignature(bytes)).toBe(true);
    const png = decodePng(bytes);
    expect([png.width, png.height]).toEqual([800, 400]);
    for (const s of SERIES) expect(countColour(png, s.color)).toBeGreaterThan(300);
  });

  it("honours width, height and scale", () => {
    const sharp = createChartRenderer({ scale: 2 });
    const png = decodePng(sharp.render({ title: "t", series: makeSeries(30), width: 600, height: 300 }));
    expect([png.width, png.height]).toEqual([1200, 600]);
  });

  it("clamps absurd sizes instead of allocating them", () => {
    const png = decodePng(renderer.render({ title: "t", series: makeSeries(3), width: 1e9, height: -5 }));
    expect([png.width, png.height]).toEqual([2000, 200]);
  });

  it("is deterministic: same input, same bytes", () => {
    const input: ChartInput = {
      title: "Trend",
      subtitle: "payments / api",
      series: makeSeries(90, "2026-01-01", { gaps: [4, 5] }),
    };
    const a = renderer.render(input);
    const b = createChartRenderer().render(structuredClone(input));
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(buildChartSvg(input)).toBe(buildChartSvg(input));
  });

  it("rejects a silly scale with a coded error", () => {
    expect(() => createChartRenderer({ scale: 0 })).toThrow(
      expect.objectContaining({ code: "chart_render" }),
    );
  });
});

describe("buildChartSvg", () => {
  it("escapes hostile text so the SVG stays well-formed", () => {
    const hostile = `payments</text><script>alert("x")</script> & 'co' \u0000\u0007`;
    const svg = buildChartSvg({
      title: hostile,
      subtitle: hostile,
      series: makeSeries(7),
      labels: { fixed: "<b>" },
    });
    expect(svg).not.toContain("<script");
    expect(svg).not.toContain("<b>");
    expect(svg).toContain("&lt;script&gt;");
    expect(svg).toContain("&amp;");
    expect(svg).toContain("&quot;x&quot;");
    expect(svg.includes("\u0000") || svg.includes("\u0007")).toBe(false);
    // resvg's XML parser is strict: a stray `<` or control character would throw here.
    expect(new Resvg(svg, { font: { loadSystemFonts: false } }).width).toBe(800);
  });

  it("breaks the line at gaps instead of drawing zeros", () => {
    const series = makeSeries(30, "2026-11-01", { gaps: [10, 11, 12] });
    const svg = buildChartSvg({ title: "t", series });
    for (const s of SERIES) {
      const d = pathOf(svg, s.key);
      expect(d.match(/M/g)).toHaveLength(2);
    }
    expect(svg).toContain(`fill="${THEME.gapFill}"`);
    expect(svg).toContain(">No data<");
  });

  it("breaks only the series that is missing a value and keeps single days visible", () => {
    const series = makeSeries(10).map((p, i) => ({ ...p, fixed: i % 2 === 0 ? p.fixed : null }));
    const svg = buildChartSvg({ title: "t", series: series.concat(makeSeries(40, "2026-01-11")) });
    expect(pathOf(svg, "findings").match(/M/g)).toHaveLength(1);
    // Days 0, 2, 4, 6, 8 stand alone; with no segment to draw, each is a dot (50 days: no dots otherwise).
    expect(svg.match(new RegExp(`<circle [^>]*fill="${colour("fixed")}"`, "g"))).toHaveLength(5);
    expect(svg).not.toContain(">No data<");
  });

  it("treats NaN and Infinity as gaps, never as text or coordinates", () => {
    const series = makeSeries(5).map((p, i) =>
      i === 2 ? { ...p, findings: Number.NaN, violations: Infinity } : p,
    );
    const svg = buildChartSvg({ title: "t", series });
    expect(svg).not.toMatch(/NaN|Infinity/);
    expect(pathOf(svg, "findings").match(/M/g)).toHaveLength(2);
  });

  it("draws all-zero counts as flat lines on a 0..4 axis with a note", () => {
    const series = makeSeries(14).map((p) => ({ ...p, findings: 0, violations: 0, fixed: 0 }));
    const svg = buildChartSvg({ title: "quiet", series });
    expect(tickLabels(svg)).toEqual(["0", "1", "2", "3", "4"]);
    const ys = new Set([...pathOf(svg, "findings").matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => m[1]));
    expect(ys.size).toBe(1);
    expect(svg).toContain("All counts are 0 for this period");
  });

  it("labels huge values compactly", () => {
    const svg = buildChartSvg({ title: "big", series: makeSeries(30, "2026-01-01", { scale: 1e9 }) });
    const labels = tickLabels(svg);
    expect(labels).toContain("1T");
    expect(labels.every((l) => /^\d+(\.\d+)?[MBT]?$/.test(l) && l.length <= 6)).toBe(true);
    expect(svg).not.toMatch(/e\+|NaN/);
  });

  it("puts thousands separators on ordinary ticks", () => {
    const labels = tickLabels(buildChartSvg({ title: "t", series: makeSeries(30) }));
    expect(labels).toContain("1,000");
  });

  it("shows no-data for an all-gap series but keeps the day labels", () => {
    const series = makeSeries(7, "2026-03-01", { gaps: [0, 1, 2, 3, 4, 5, 6] });
    const svg = buildChartSvg({ title: "t", series });
    expect(svg).toContain("No data for this period");
    expect(svg).toContain(">Mar 7<");
    expect(svg).not.toContain("<path");
  });

  it("labels a 366-day range by month and a single day in the middle", () => {
    const year = buildChartSvg({ title: "t", series: makeSeries(366, "2025-12-01") });
    expect(year).toContain(">Jan 2026<");
    expect(year).toContain(">Jul<");
    expect(year).not.toContain("2025");
    const one = buildChartSvg({ title: "t", series: makeSeries(1, "2026-05-05") });
    expect(one).toContain(">May 5<");
    expect(one.match(/<circle /g)).toHaveLength(3);
  });

  it("names the series in the legend with the digest's own words (Fixes, not Fixed)", () => {
    const svg = buildChartSvg({ title: "Last 7 days", series: makeSeries(7) });
    const legend = SERIES.map((s) => new RegExp(`>${s.label}</text>`).exec(svg)?.[0]);
    expect(legend).toEqual([">Findings</text>", ">Violations</text>", ">Fixes</text>"]);
    const digest = JSON.stringify(digestMessage(makeView()));
    for (const s of SERIES) expect(digest).toContain(`*${s.label}*`);
  });

  it("wraps the legend under the title on a narrow chart, inside the canvas", () => {
    const svg = buildChartSvg({
      title: "Last 14 days",
      series: makeSeries(14, "2026-01-01", { gaps: [3] }),
      width: 320,
    });
    const xs = [...svg.matchAll(/<(?:text|rect|line) x1?="([\d.-]+)"/g)].map((m) => Number(m[1]));
    expect(xs.length).toBeGreaterThan(10);
    expect(xs.every((x) => x >= 0 && x <= 320)).toBe(true);
    const legendY = Number(/y="([\d.]+)"[^>]*>Findings</.exec(svg)?.[1]);
    const titleY = Number(/y="([\d.]+)"[^>]*font-weight="600"/.exec(svg)?.[1]);
    expect(legendY).toBeGreaterThan(titleY);
  });

  it("cuts a very long title with an ellipsis", () => {
    const svg = buildChartSvg({ title: "x".repeat(500), series: [] });
    const title = /font-weight="600"[^>]*>([^<]*)</.exec(svg)?.[1] ?? "";
    expect(title.endsWith("…")).toBe(true);
    expect(title.length).toBeLessThan(80);
  });
});
