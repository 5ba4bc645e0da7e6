import { type Plot, xAxis, yAxis } from "./axes.ts";
import { formatTick } from "./format.ts";
import { buildHeader, type LegendItem } from "./header.ts";
import { gapRuns, isKnown } from "./lines.ts";
import { faintLine, gapBands, seriesLine } from "./marks.ts";
import { linearScale, niceTicks, round1 } from "./scale.ts";
import { escapeXml, estimateWidth } from "./text.ts";
import {
  ALL_ZERO_MESSAGE,
  DEFAULT_HEIGHT,
  DEFAULT_WIDTH,
  EMPTY_MESSAGE,
  PARTIAL_LABEL,
  PREVIOUS_LABEL,
  SERIES,
  THEME,
} from "./theme.ts";
import type { ChartInput } from "./types.ts";

/**
 * The chart as an SVG document: title, legend, y-axis with nice ticks, day labels, and one line per
 * series with gaps left open. Pure and deterministic: the same input gives the same string.
 *
 * @example
 * const svg = buildChartSvg({ title: "Last 7 days", series: digest.series });
 */
export function buildChartSvg(input: ChartInput): string {
  const width = clampSize(input.width, DEFAULT_WIDTH, 320, 2000);
  const height = clampSize(input.height, DEFAULT_HEIGHT, 200, 1200);
  const series = input.series;
  const styles = SERIES.map((s) => ({ ...s, label: input.labels?.[s.key] ?? s.label }));
  const known = series.flatMap((p) => styles.map((s) => p[s.key]).filter(isKnown));
  const previous = (input.previous ?? []).slice(0, series.length);
  const knownBefore = previous.flatMap((p) => styles.map((s) => p[s.key]).filter(isKnown));
  const missingDay = (i: number): boolean => styles.every((s) => !isKnown(series[i]?.[s.key]));
  const gaps = known.length > 0 ? gapRuns(series.length, missingDay) : [];
  const partial = input.partialFrom
    ? gapRuns(series.length, (i) => (series[i]?.day ?? "") >= (input.partialFrom ?? ""))
    : [];

  const legend: LegendItem[] = styles.map((s) => ({ label: s.label, color: s.color, kind: "line" }));
  if (knownBefore.length > 0 && known.length > 0)
    legend.push({ label: PREVIOUS_LABEL, color: THEME.muted, kind: "faint" });
  if (gaps.length > 0) legend.push({ label: "No data", color: THEME.gapFill, kind: "band" });
  if (partial.length > 0 && known.length > 0)
    legend.push({ label: PARTIAL_LABEL, color: THEME.partialFill, kind: "band" });
  const header = buildHeader(width, input.title, input.subtitle, legend);

  // The faint lines share the axis, so a previous period that was busier still fits the plot.
  const scaled = known.length > 0 ? [...known, ...knownBefore] : known;
  const ticks = niceTicks(
    scaled.reduce((a, b) => Math.min(a, b), 0),
    scaled.reduce((a, b) => Math.max(a, b), 0),
  );
  const tickLabels = ticks.values.map((v) => formatTick(v, ticks.step));
  const gutter = Math.max(...tickLabels.map((l) => estimateWidth(l, THEME.tickSize)));
  const plot: Plot = {
    left: round1(THEME.pad + gutter + 10),
    right: width - THEME.pad - 4,
    // A tall header on a small canvas still leaves the plot a few pixels rather than a negative height.
    top: Math.min(header.bottom + 18, height - 60),
    bottom: height - 36,
  };
  const x = indexScale(series.length, plot);
  const y = linearScale(ticks.min, ticks.max, plot.bottom, plot.top);

  const body =
    known.length === 0
      ? emptyState(plot, EMPTY_MESSAGE)
      : [
          gapBands(gaps, series.length, x, plot),
          gapBands(partial, series.length, x, plot, THEME.partialFill),
          yAxis(ticks, tickLabels, y, plot),
          styles.map((s) => faintLine(previous, s, x, y, series.length)).join(""),
          styles.map((s) => seriesLine(series, s, x, y)).join(""),
          // Three lines on top of each other at 0 look like one line; say what happened.
          known.every((v) => v === 0) ? note(plot, ALL_ZERO_MESSAGE) : "",
        ].join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${THEME.fontFamily}">`,
    `<title>${escapeXml(input.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="${THEME.background}"/>`,
    header.svg,
    body,
    xAxis(series, x, plot, width),
    "</svg>",
  ].join("");
}

function clampSize(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.round(Math.min(max, Math.max(min, value)));
}

/** Day i → x. A single day sits in the middle rather than on the y-axis. */
function indexScale(length: number, plot: Plot): (index: number) => number {
  const inset = 6;
  const scale = linearScale(0, Math.max(1, length - 1), plot.left + inset, plot.right - inset);
  return length <= 1 ? () => round1((plot.left + plot.right) / 2) : (i) => round1(scale(i));
}

function emptyState(plot: Plot, message: string): string {
  return (
    `<line x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="${THEME.axis}" stroke-width="1"/>` +
    note(plot, message)
  );
}

function note(plot: Plot, message: string): string {
  const cx = round1((plot.left + plot.right) / 2);
  const cy = round1((plot.top + plot.bottom) / 2);
  return `<text x="${cx}" y="${cy}" font-size="${THEME.emptySize}" fill="${THEME.muted}" text-anchor="middle">${escapeXml(message)}</text>`;
}
