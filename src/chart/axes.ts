import type { DayPoint } from "../insights/types.ts";
import { dayTicks } from "./days.ts";
import { round1, type Ticks } from "./scale.ts";
import { escapeXml, estimateWidth } from "./text.ts";
import { THEME } from "./theme.ts";

/** The y-axis (grid lines and count labels) and the x-axis (day labels) of the plot. */

/** The plot area inside the canvas, in pixels. */
export interface Plot {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

const MIN_LABEL_SPACING = 56;

/** Horizontal grid lines at each tick, the zero line darker, labels right-aligned in the gutter. */
export function yAxis(ticks: Ticks, labels: string[], y: (v: number) => number, plot: Plot): string {
  return ticks.values
    .map((value, i) => {
      const py = round1(y(value));
      const stroke = value === 0 ? THEME.axis : THEME.grid;
      return (
        `<line x1="${plot.left}" y1="${py}" x2="${plot.right}" y2="${py}" stroke="${stroke}" stroke-width="1"/>` +
        `<text x="${plot.left - 8}" y="${round1(py + 4)}" font-size="${THEME.tickSize}" fill="${THEME.muted}" text-anchor="end">${escapeXml(labels[i] ?? "")}</text>`
      );
    })
    .join("");
}

/** Day labels under the plot, thinned to fit and kept inside the canvas. */
export function xAxis(series: DayPoint[], x: (i: number) => number, plot: Plot, width: number): string {
  const maxLabels = Math.max(1, Math.floor((plot.right - plot.left) / MIN_LABEL_SPACING));
  const parts: string[] = [];
  let freeFrom = Number.NEGATIVE_INFINITY;
  for (const { index, label } of dayTicks(
    series.map((p) => p.day),
    maxLabels,
  )) {
    const px = x(index);
    // Edge labels shift inwards rather than get clipped by the canvas.
    const half = estimateWidth(label, THEME.tickSize) / 2;
    const lx = round1(Math.min(Math.max(px, half + 4), width - half - 4));
    // A label with a year is wider than the spacing assumed; skip one rather than overprint.
    if (lx - half < freeFrom) continue;
    freeFrom = lx + half + 8;
    parts.push(
      `<line x1="${px}" y1="${plot.bottom}" x2="${px}" y2="${plot.bottom + 4}" stroke="${THEME.axis}" stroke-width="1"/>`,
      `<text x="${lx}" y="${plot.bottom + 19}" font-size="${THEME.tickSize}" fill="${THEME.muted}" text-anchor="middle">${escapeXml(label)}</text>`,
    );
  }
  return parts.join("");
}
