import { LIMITS } from "../src/blockkit/limits.ts";
import { escapeMrkdwn, mrkdwn, oneLine, truncate } from "../src/blockkit/text.ts";
import type { ContextBlock, DataVisualizationBlock } from "../src/blockkit/types.ts";
import { BLOCK } from "../src/ids.ts";
import { type Granularity, type TrendBucket, trendBuckets } from "../src/insights/trend-buckets.ts";
import type { DigestView } from "../src/insights/types.ts";
import { formatCount, formatDay, formatMonthDay } from "./format.ts";

/**
 * The daily trend as a chart Slack draws (the data visualization block): violations per day in this
 * period and in the previous one, lined up on the same days of the period. Up to 16 days a point a
 * day, up to 18 weeks a point a week, beyond a point a month (means per day, so a short week or a
 * part-month compares fairly). The block has no shading and no gaps, so what it cannot show is said
 * in the context line under it: today's partial day, days without data (left out, never drawn as
 * zero), the aggregation, and the busiest and quietest day.
 */

export const SERIES_NAMES = { current: "This period", previous: "Previous period" } as const;

const TITLE: Record<Granularity, string> = {
  day: "Violations per day",
  week: "Violations per day, weekly mean",
  month: "Violations per day, monthly mean",
};
const Y_LABEL: Record<Granularity, string> = {
  day: "violations",
  week: "violations per day (mean)",
  month: "violations per day (mean)",
};
/** Left-out buckets named in the context line; the rest are counted. */
const NAMED = 4;

function weekLabel(b: TrendBucket): string {
  if (b.from === b.to) return formatMonthDay(b.from);
  const [from, to] = [formatMonthDay(b.from), formatMonthDay(b.to)];
  // Same month: "Nov 1–7"; across months: "Nov 29–Dec 5".
  return from.slice(0, 3) === to.slice(0, 3) ? `${from}–${to.slice(4)}` : `${from}–${to}`;
}

/** The category of a bucket: its day, its week's days or its month; at most 20 characters. */
function categoryOf(b: TrendBucket, g: Granularity): string {
  const label =
    g === "day"
      ? `${formatDay(b.from)}${b.partial ? " so far" : ""}`
      : g === "week"
        ? weekLabel(b)
        : formatMonthDay(b.from, true);
  return truncate(label, LIMITS.chartLabel);
}

const plural = (n: number, one: string) => `${formatCount(n)} ${one}${n === 1 ? "" : "s"}`;

function shownAs(g: Granularity, days: number, buckets: number): string | null {
  if (g === "day") return null;
  const unit = g === "week" ? "week" : "month";
  const parts = g === "month" ? " (the first and last may be part-months)" : "";
  return `${plural(days, "day")} read as ${plural(buckets, unit)}: each point is the mean per day${parts}`;
}

/** Why buckets are not on the chart: no data in this period, or none in the previous one. */
function leftOut(out: { b: TrendBucket; category: string }[]): string | null {
  if (out.length === 0) return null;
  const named = out.slice(0, NAMED).map(({ b, category }) => {
    const why = b.current === null ? "no data" : "no data in the previous period";
    return `${category} (${why})`;
  });
  const more = out.length > NAMED ? ` and ${formatCount(out.length - NAMED)} more` : "";
  return `Left out, not drawn as zero: ${named.join(", ")}${more}`;
}

/** The notes under the chart, in the order a reader needs them. */
function notes(
  view: DigestView,
  g: Granularity,
  plotted: TrendBucket[],
  out: { b: TrendBucket; category: string }[],
) {
  const { digest } = view;
  const partial = digest.completeness?.partialFrom ?? null;
  const previous = view.previousSeries;
  const parts = [
    shownAs(g, digest.range.days, plotted.length),
    previous && previous.length > 0
      ? `${SERIES_NAMES.previous}: ${escapeMrkdwn(digest.range.previousLabel)}, day for day`
      : "No previous-period line: its daily figures were not available",
    partial && partial >= digest.range.from && partial <= digest.range.to
      ? plotted.some((b) => b.partial)
        ? `${escapeMrkdwn(formatDay(partial))} is today so far (partial)`
        : `today (${escapeMrkdwn(formatDay(partial))}) is left out of its ${g === "week" ? "week" : "month"}'s mean until it is complete`
      : null,
    leftOut(out),
    plotted.some((b) => b.missingDays > 0)
      ? `${plural(
          plotted.reduce((n, b) => n + b.missingDays, 0),
          "day",
        )} without data left out of the means`
      : null,
    digest.trend.peak
      ? `Peak ${escapeMrkdwn(formatDay(digest.trend.peak.day))} (${formatCount(digest.trend.peak.value)})`
      : null,
    digest.trend.quietest
      ? `quietest ${escapeMrkdwn(formatDay(digest.trend.quietest.day))} (${formatCount(digest.trend.quietest.value)})`
      : null,
  ].filter((p): p is string => p !== null);
  return parts.join(" · ");
}

/** The range under the axis, on one line; none when there is nothing to say. */
function xLabel(range: string): { x_label?: string } {
  const text = truncate(oneLine(range), LIMITS.chartAxisLabel);
  return text === "" ? {} : { x_label: text };
}

/**
 * The chart block and the context line under it, or null when no day of the range has data (the
 * digest then says so in words). Pure: everything comes in the view.
 */
export function trendChartBlocks(view: DigestView): [DataVisualizationBlock, ContextBlock] | null {
  const { digest } = view;
  const withPrevious = (view.previousSeries?.length ?? 0) > 0;
  const partial = digest.completeness?.partialFrom ?? null;
  const { granularity: g, buckets } = trendBuckets(digest.series, view.previousSeries, partial);
  const plotted: { b: TrendBucket; category: string; current: number; previous: number }[] = [];
  const out: { b: TrendBucket; category: string }[] = [];
  for (const b of buckets) {
    const category = categoryOf(b, g);
    // Slack's points are numbers: a bucket either side has no data for is left out, never drawn as 0.
    if (b.current !== null && (!withPrevious || b.previous !== null))
      plotted.push({ b, category, current: b.current, previous: b.previous ?? 0 });
    else out.push({ b, category });
  }
  if (plotted.length === 0) return null;
  const categories = plotted.map((p) => p.category);
  const line = (name: string, value: (p: (typeof plotted)[number]) => number) => ({
    name,
    data: plotted.map((p) => ({ label: p.category, value: value(p) })),
  });
  const chart: DataVisualizationBlock = {
    type: "data_visualization",
    block_id: BLOCK.digestChart,
    title: TITLE[g],
    chart: {
      // A line needs a few points to read as one; a day or two are clearer as bars.
      type: plotted.length >= 3 ? "line" : "bar",
      series: [
        line(SERIES_NAMES.current, (p) => p.current),
        ...(withPrevious ? [line(SERIES_NAMES.previous, (p) => p.previous)] : []),
      ],
      axis_config: { categories, ...xLabel(digest.range.label), y_label: Y_LABEL[g] },
    },
  };
  const text = notes(
    view,
    g,
    plotted.map((p) => p.b),
    out,
  );
  return [chart, { type: "context", elements: [mrkdwn(text, LIMITS.contextText)] }];
}
