import type { FilterOption, IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";
import type { Drivers } from "./drivers.ts";
import type { Completeness, DataGap } from "./gaps.ts";
import type { WeekdaySeries } from "./unusual.ts";

export type { DayPoint } from "./day-point.ts";

/**
 * View models of the pure core. `src/insights/` computes them from a validated reply and a resolved
 * range; `templates/` turns them into Block Kit. Time always comes in as an argument.
 */

/** A range resolved against a clock and an IANA timezone. Both ends inclusive. */
export interface ResolvedRange {
  /** Canonical grammar form, re-parseable: `last7d`, `lastweek`, `2026-11-01..2026-11-15`. */
  spec: string;
  /** Human label, e.g. `Nov 15 – Nov 21, 2026`. */
  label: string;
  from: IsoDay;
  to: IsoDay;
  /** Number of days, from..to inclusive. */
  days: number;
  /** The equally long period just before `from`. */
  previousFrom: IsoDay;
  previousTo: IsoDay;
  previousLabel: string;
  /** IANA zone the range was resolved in. */
  tz: string;
}

export type Direction = "up" | "down" | "flat";
/** Whether the move is good news: more findings/violations is bad, more fixes is good. */
export type Sentiment = "good" | "bad" | "neutral";

export interface Delta {
  current: number;
  previous: number;
  /** current − previous */
  change: number;
  /** Percent change; null when previous is 0 (shown as "new" when current > 0). Never Infinity or NaN. */
  pct: number | null;
  direction: Direction;
  sentiment: Sentiment;
  /** previous = 0 and current > 0 */
  isNew: boolean;
}

/** What was wrong with the daily series as received, and whether it was repaired. */
export interface SeriesCheck {
  ok: boolean;
  missingDays: IsoDay[];
  /** Entries outside the range, or duplicates, that were dropped. */
  droppedEntries: number;
  unsorted: boolean;
  /** Malformed time stamps that could not be placed. */
  badTimeStamps: number;
}

export interface TrendPoint {
  day: IsoDay;
  value: number;
}

export interface Trend {
  /** Busiest day by violations (null for an empty or all-gap series). */
  peak: TrendPoint | null;
  quietest: TrendPoint | null;
  /** One block character per day (▁▂▃▄▅▆▇█, a space for a gap); long ranges are bucketed. */
  sparkline: string;
}

export interface Digest {
  range: ResolvedRange;
  findings: Delta;
  violations: Delta;
  /** Fixes over the range; sentiment "up is better". */
  fixes: number;
  mergedViolations: number;
  /** fixes / (violations.current + fixes) in 0..1, null when both are 0. */
  fixRate: number | null;
  /** violations.current − fixes: the backlog grew (> 0) or shrank (< 0) over the range. */
  netChange: number;
  series: DayPoint[];
  seriesCheck: SeriesCheck;
  trend: Trend;
  /** Partial today and data gaps found in the digest's own series (absent in older fixtures). */
  completeness?: Completeness;
}

/** An asset group a reader can narrow the digest to (a drivers button). */
export interface GroupChoice {
  name: string;
  label: string;
}

/** The drivers of a digest's change and the data gaps found on the way (see src/insights/drivers.ts). */
export interface DriversView {
  drivers: Drivers;
  /** Silences per scanner, asset group or in total, over the drivers' window. */
  gaps: DataGap[];
  /** Asset groups named in the drivers, for the narrowing buttons. */
  groups: GroupChoice[];
  /** GraphQL queries the drivers needed (cache hits included). */
  queries: number;
  /** Asset groups left unnamed because the query budget ran out (counted in "other"). */
  unqueriedGroups: number;
  /** Scanners left unnamed for the same reason (counted in "other"); absent in results made before it was counted. */
  unqueriedScanners?: number;
}

/** Active and available filters for the dropdowns. `available: null` means the service does not offer filters. */
export interface FilterState {
  assets: FilterOption[] | null;
  scanners: FilterOption[] | null;
  selectedAssetIds: string[];
  selectedScannerIds: string[];
  /** Asset groups the digest is narrowed to (a drivers button); their ids are queried, not listed here. */
  selectedGroups?: string[];
}

/**
 * How a digest shows its trend and breakdowns: `native` as blocks Slack draws (a chart block and a
 * table block), `png` as an uploaded image (scheduled digests; elsewhere the text sparkline), `off`
 * as text alone.
 */
export type ChartStyle = "native" | "png" | "off";

export const CHART_STYLES: readonly ChartStyle[] = ["native", "png", "off"];

/** Everything the digest template needs. */
export interface DigestView {
  digest: Digest;
  filters: FilterState;
  /** ISO instant the data was fetched (footer "data as of"). */
  generatedAt: string;
  /** Link to the platform's web app, when known. */
  platformUrl?: string;
  /** Public URL or Slack file of the chart, when a chart was uploaded. */
  chart?: { imageUrl?: string; slackFileId?: string; altText: string };
  /** Ephemeral on-demand replies carry a Share button; shared/scheduled ones do not. */
  shareable: boolean;
  /** "Shared by <@U…>" or "Scheduled digest · <subscription>" */
  attribution?: string;
  /** Why the numbers moved, when asked for (Why? button, scheduled digests). */
  drivers?: DriversView;
  /** Drivers were asked for but could not be had: why, in a sentence a reader can take. */
  driversUnavailable?: string;
  /** Offer the Why? button (on-demand digests that do not show their drivers yet). */
  explainable?: boolean;
  /** Daily series of the previous period, aligned day by day with `digest.series` (the chart's faint line). */
  previousSeries?: DayPoint[];
  /** How the trend and the drivers are shown; absent = text (and an image when `chart` is set). */
  chartStyle?: ChartStyle;
  /** The latest complete day and the weeks before it, when an `unusual` condition asked for them. */
  weekday?: WeekdaySeries;
}
