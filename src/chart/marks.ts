import type { DayPoint } from "../insights/types.ts";
import type { Plot } from "./axes.ts";
import { isKnown, linePath } from "./lines.ts";
import { round1 } from "./scale.ts";
import { type SeriesStyle, THEME } from "./theme.ts";

/** What the plot draws: shaded day bands, the series' lines and dots, the previous period's faint lines. */

/** Past a month, one dot per day would be a smear; only the lines remain. */
const DOTS_UP_TO_DAYS = 31;

export function gapBands(
  gaps: Array<[number, number]>,
  length: number,
  x: (i: number) => number,
  plot: Plot,
  fill: string = THEME.gapFill,
): string {
  const half = length > 1 ? (x(1) - x(0)) / 2 : 0;
  return gaps
    .map(([from, to]) => {
      const x0 = Math.max(plot.left, x(from) - half);
      const x1 = Math.min(plot.right, x(to) + half);
      return `<rect x="${round1(x0)}" y="${plot.top}" width="${round1(Math.max(1, x1 - x0))}" height="${plot.bottom - plot.top}" fill="${fill}"/>`;
    })
    .join("");
}

export function seriesLine(
  series: DayPoint[],
  style: SeriesStyle,
  x: (i: number) => number,
  y: (v: number) => number,
): string {
  const values = series.map((p) => p[style.key]);
  const line = linePath(values, x, (v) => round1(y(v)));
  const width = series.length > 92 ? 1.5 : 2;
  const path = line.d
    ? `<path d="${line.d}" fill="none" stroke="${style.color}" stroke-width="${width}" stroke-linejoin="round" stroke-linecap="round"/>`
    : "";
  const dotted =
    series.length <= DOTS_UP_TO_DAYS
      ? values.flatMap((v, i) => (isKnown(v) ? [[x(i), round1(y(v))] as const] : []))
      : line.lonely;
  const dots = dotted
    .map(([cx, cy]) => `<circle cx="${cx}" cy="${cy}" r="2.5" fill="${style.color}"/>`)
    .join("");
  return path + dots;
}

/** The previous period's line of one series: same colour, faint and dashed, no dots. */
export function faintLine(
  previous: DayPoint[],
  style: SeriesStyle,
  x: (i: number) => number,
  y: (v: number) => number,
  length: number,
): string {
  if (previous.length === 0) return "";
  const line = linePath(
    previous.map((p) => p[style.key]),
    x,
    (v) => round1(y(v)),
  );
  if (!line.d) return "";
  const width = length > 92 ? 1.2 : 1.6;
  return `<path d="${line.d}" fill="none" stroke="${style.color}" stroke-opacity="${THEME.previousOpacity}" stroke-width="${width}" stroke-dasharray="5 4" stroke-linejoin="round"/>`;
}
