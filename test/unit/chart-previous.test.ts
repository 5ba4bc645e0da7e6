import { describe, expect, it } from "vitest";
import { buildChartSvg, createChartRenderer } from "../../src/chart/index.ts";
import { SERIES, THEME } from "../../src/chart/theme.ts";
import { countColour, decodePng, makeSeries } from "./chart-helpers.ts";

const faint = (svg: string) => [
  ...svg.matchAll(/<path d="([^"]*)"[^>]*stroke-opacity="0\.38"[^>]*stroke-dasharray="5 4"/g),
];
const tickLabels = (svg: string) => [...svg.matchAll(/text-anchor="end">([^<]*)</g)].map((m) => m[1] ?? "");

describe("the previous period in the chart", () => {
  const series = makeSeries(30, "2026-10-24");
  const previous = makeSeries(30, "2026-09-24", { scale: 0.6 });

  it("draws one faint dashed line per series beneath the current ones, and says so in the legend", () => {
    const svg = buildChartSvg({ title: "t", series, previous });
    const lines = faint(svg);
    expect(lines).toHaveLength(SERIES.length);
    for (const s of SERIES) expect(svg).toContain(`stroke="${s.color}" stroke-opacity="0.38"`);
    // Beneath: every faint path comes before the first solid one.
    const firstSolid = svg.indexOf(`stroke="${SERIES[0]?.color}" stroke-width="2"`);
    expect(svg.lastIndexOf('stroke-dasharray="5 4"')).toBeLessThan(firstSolid);
    expect(svg).toContain(">Previous period<");
    const none = buildChartSvg({ title: "t", series });
    expect(faint(none)).toHaveLength(0);
    expect(none).not.toContain("Previous period");
  });

  it("puts a busier previous period on the same axis, and keeps its gaps open", () => {
    const busy = makeSeries(30, "2026-09-24", { scale: 3, gaps: [3, 4] });
    const top = (svg: string) => Math.max(...tickLabels(svg).map((l) => Number(l.replace(/[,K]/g, ""))));
    expect(top(buildChartSvg({ title: "t", series, previous: busy }))).toBeGreaterThan(
      top(buildChartSvg({ title: "t", series })),
    );
    const d = faint(buildChartSvg({ title: "t", series, previous: busy }))[0]?.[1] ?? "";
    expect(d.match(/M/g)).toHaveLength(2);
    // Longer than the current period: the extra days are not drawn past the last day.
    const longer = faint(
      buildChartSvg({ title: "t", series, previous: makeSeries(45, "2026-09-09") }),
    )[0]?.[1];
    expect(longer?.match(/L/g)).toHaveLength(29);
  });

  it("shades a partial today and names it", () => {
    const svg = buildChartSvg({ title: "t", series, partialFrom: "2026-11-22" });
    expect(svg).toContain(`fill="${THEME.partialFill}"`);
    expect(svg).toContain(">Today so far<");
    expect(buildChartSvg({ title: "t", series, partialFrom: "2026-12-01" })).not.toContain("Today so far");
  });

  it("renders the faint lines as a light tint of each series' colour", () => {
    const tint = (hex: string) =>
      `#${[1, 3, 5]
        .map((i) => Number.parseInt(hex.slice(i, i + 2), 16))
        .map((c) =>
          Math.round(255 - THEME.previousOpacity * (255 - c))
            .toString(16)
            .padStart(2, "0"),
        )
        .join("")}`;
    const renderer = createChartRenderer();
    const plot = { x0: 0, y0: 90, x1: 800, y1: 360 };
    const low = makeSeries(30, "2026-09-24", { scale: 0.3 });
    const withPrevious = decodePng(renderer.render({ title: "t", series, previous: low }));
    const without = decodePng(renderer.render({ title: "t", series }));
    for (const s of SERIES) {
      // Anti-aliased edges of the solid lines pass through the tint too, but far more rarely.
      const faintPixels = countColour(withPrevious, tint(s.color), plot, 12);
      const edgePixels = countColour(without, tint(s.color), plot, 12);
      expect(faintPixels).toBeGreaterThan(2 * edgePixels + 50);
    }
  });
});
