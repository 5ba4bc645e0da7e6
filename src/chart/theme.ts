import type { SeriesKey } from "./types.ts";

/**
 * Look of the chart. Okabe–Ito colours so the three lines stay apart for colour-blind readers;
 * an opaque white background because Slack's dark theme would otherwise show through.
 */
export const THEME = {
  fontFamily: "Inter",
  background: "#ffffff",
  text: "#1d1c1d",
  muted: "#616061",
  grid: "#ebebeb",
  axis: "#b8b8b8",
  gapFill: "#f3f1ee",
  partialFill: "#eef3fb",
  /** How faint the previous period's lines are. */
  previousOpacity: 0.38,
  titleSize: 18,
  subtitleSize: 13,
  legendSize: 13,
  tickSize: 12,
  emptySize: 16,
  pad: 20,
} as const;

export interface SeriesStyle {
  key: SeriesKey;
  label: string;
  color: string;
}

export const SERIES: readonly SeriesStyle[] = [
  { key: "findings", label: "Findings", color: "#0072B2" },
  { key: "violations", label: "Violations", color: "#D55E00" },
  { key: "fixed", label: "Fixes", color: "#009E73" },
];

export const DEFAULT_WIDTH = 800;
export const DEFAULT_HEIGHT = 400;
export const EMPTY_MESSAGE = "No data for this period";
export const ALL_ZERO_MESSAGE = "All counts are 0 for this period";
export const PREVIOUS_LABEL = "Previous period";
export const PARTIAL_LABEL = "Today so far";
