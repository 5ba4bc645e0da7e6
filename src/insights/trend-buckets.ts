import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";
import { fromEpochDay, toEpochDay } from "./days.ts";

/**
 * The daily trend cut into the buckets a chart Slack draws can show: Slack takes at most 20 points
 * a series and every series needs a number at every point, so long ranges become weeks or months
 * and a day without data must be left out rather than drawn as zero. Buckets are laid on the
 * current period; the previous period is cut at the same day offsets, so bucket i compares the same
 * days of both periods. Aggregated buckets hold the mean per day over the days with data, which
 * keeps a short last week, a partial month or a missing day from reading as a drop. Pure.
 */

export type Granularity = "day" | "week" | "month";

/** Longest range shown day by day, and by week; beyond, by calendar month (13 at most for 366 days). */
export const DAILY_MAX_DAYS = 16;
export const WEEKLY_MAX_DAYS = 126;

export interface TrendBucket {
  /** First and last day of the bucket in the current period. */
  from: IsoDay;
  to: IsoDay;
  /** Violations per day over the bucket's days with data (the day's own count for a daily bucket). */
  current: number | null;
  /** The same offsets in the previous period; null when none of them has data (or no previous period). */
  previous: number | null;
  /** Days of the bucket (current period) with no data from the service. */
  missingDays: number;
  /** The bucket's value includes today's partial day. */
  partial: boolean;
}

export interface TrendBuckets {
  granularity: Granularity;
  buckets: TrendBucket[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** Picks the granularity that keeps a range's points legible and within Slack's 20. */
export function granularityFor(days: number): Granularity {
  if (days <= DAILY_MAX_DAYS) return "day";
  return days <= WEEKLY_MAX_DAYS ? "week" : "month";
}

/** Offsets [start, end) of each bucket into the current series. */
function spans(days: readonly IsoDay[], granularity: Granularity): [number, number][] {
  const out: [number, number][] = [];
  if (granularity === "day") return days.map((_, i) => [i, i + 1]);
  if (granularity === "week") {
    for (let i = 0; i < days.length; i += 7) out.push([i, Math.min(days.length, i + 7)]);
    return out;
  }
  let start = 0;
  for (let i = 1; i <= days.length; i++) {
    if (i === days.length || days[i]?.slice(0, 7) !== days[start]?.slice(0, 7)) {
      out.push([start, i]);
      start = i;
    }
  }
  return out;
}

/** The mean of the known values, or null when there is none. */
function mean(values: readonly (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values)
    if (v !== null) {
      sum += v;
      n++;
    }
  return n === 0 ? null : sum / n;
}

/**
 * Cuts `series` (and `previous`, day i under day i) into buckets of `violations` per day. `partialFrom`
 * marks today's day still being filled: shown as it is in a daily chart, and left out of an
 * aggregated bucket's mean unless it is the bucket's only day with data.
 *
 * @example trendBuckets(series30, previous30, "2026-11-21") // { granularity: "week", buckets: [5 weeks] }
 */
export function trendBuckets(
  series: readonly DayPoint[],
  previous: readonly DayPoint[] | undefined,
  partialFrom: IsoDay | null,
): TrendBuckets {
  const days = series.map((p) => p.day);
  const granularity = granularityFor(days.length);
  const partialEpoch = partialFrom === null ? null : toEpochDay(partialFrom);
  const isPartial = (day: IsoDay) => partialEpoch !== null && (toEpochDay(day) ?? -1) >= partialEpoch;
  const buckets = spans(days, granularity).map(([start, end]): TrendBucket => {
    const cur = series.slice(start, end);
    const prev = previous?.slice(start, end) ?? [];
    const complete = cur.filter((p) => !isPartial(p.day)).map((p) => p.violations);
    const all = cur.map((p) => p.violations);
    const daily = granularity === "day";
    const fromComplete = daily ? null : mean(complete);
    const current = fromComplete ?? mean(all);
    const partial =
      cur.some((p) => isPartial(p.day) && p.violations !== null) && (daily || fromComplete === null);
    const prevValue = mean(prev.map((p) => p.violations));
    return {
      from: cur[0]?.day ?? fromEpochDay(0),
      to: cur.at(-1)?.day ?? fromEpochDay(0),
      current: current === null ? null : daily ? current : round1(current),
      previous: prevValue === null ? null : daily ? prevValue : round1(prevValue),
      missingDays: all.filter((v) => v === null).length,
      partial,
    };
  });
  return { granularity, buckets };
}
