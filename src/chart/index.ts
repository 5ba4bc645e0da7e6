/** Trend chart: the daily series as an SVG built here, rendered to PNG with a bundled font. */
export { bundledFontFiles } from "./fonts.ts";
export { formatCompact, formatCount, formatTick } from "./format.ts";
export {
  type ChartRenderer,
  type ChartRendererOptions,
  createChartRenderer,
  renderChartPng,
} from "./render.ts";
export { buildChartSvg } from "./svg.ts";
export type { ChartInput, SeriesKey } from "./types.ts";
