import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";
import { isoWeekday } from "./days.ts";
import type { Dimension } from "./drivers.ts";
import type { Periods } from "./period-totals.ts";

/**
 * The data-gap rule: a zero you can trust. A scanner or asset group that reported every day and then
 * reports nothing for days on end has more likely stopped sending data than become clean, so the
 * digest says "no data from X since <day> — possible scan outage" instead of showing good news.
 *
 * A run of silent days is a gap when all of these hold:
 * 1. it lasts at least `minDays` complete days (a partial today never counts, nor does a day the
 *    service left out, which is unknown rather than zero);
 * 2. in the `baselineDays` before it (at least `minBaselineDays` of them known), the slice had
 *    activity on at least `minActiveShare` of the days: it was normally active, not sporadic;
 * 3. the baseline predicts at least `minExpected` activity over the silent days, weekday by weekday
 *    (each day expects the mean of the same weekday in the baseline), so a quiet slice's empty
 *    weekend is not an outage while a busy scanner's silent Tuesday and Wednesday is.
 * Activity is findings + fixed + merged violations: everything a scan reports.
 */
export interface GapRule {
  minDays: number;
  baselineDays: number;
  minBaselineDays: number;
  /** 0..1 */
  minActiveShare: number;
  minExpected: number;
}

export const DEFAULT_GAP_RULE: GapRule = {
  minDays: 2,
  baselineDays: 28,
  minBaselineDays: 14,
  minActiveShare: 0.9,
  minExpected: 30,
};

/** One slice's daily series; `total` is the whole digest, unsliced. */
export interface ActivitySeries {
  dimension: Dimension | "total";
  key: string;
  label: string;
  points: readonly DayPoint[];
}

export interface DataGap {
  dimension: Dimension | "total";
  key: string;
  label: string;
  /** First silent day. */
  from: IsoDay;
  /** Last silent day (the last complete day when `ongoing`). */
  to: IsoDay;
  /** Still silent on the last complete day: "since <from>". */
  ongoing: boolean;
  days: number;
  /** Activity the baseline predicted over the silent days. */
  expected: number;
  /** Which of the digest's periods the silence falls in. */
  current: boolean;
  previous: boolean;
}

export interface GapContext {
  periods: Periods;
  /** The first day that is still being filled (today, see partialFrom); it and later days are not judged. */
  partialFrom: IsoDay | null;
}

function activity(p: DayPoint): number | null {
  if (p.findings === null || p.fixed === null || p.merged === null) return null;
  return p.findings + p.fixed + p.merged;
}

/** Mean of the baseline per ISO weekday (1..7), and overall for weekdays it lacks. */
function weekdayMeans(baseline: { day: IsoDay; value: number }[]): (day: IsoDay) => number {
  const sums = new Array<number>(8).fill(0);
  const counts = new Array<number>(8).fill(0);
  let all = 0;
  for (const b of baseline) {
    const w = isoWeekday(b.day);
    sums[w] = (sums[w] ?? 0) + b.value;
    counts[w] = (counts[w] ?? 0) + 1;
    all += b.value;
  }
  const overall = baseline.length > 0 ? all / baseline.length : 0;
  return (day) => {
    const w = isoWeekday(day);
    const n = counts[w] ?? 0;
    return n > 0 ? (sums[w] ?? 0) / n : overall;
  };
}

function judge(
  values: (number | null)[],
  days: IsoDay[],
  start: number,
  end: number,
  rule: GapRule,
): number | null {
  if (end - start + 1 < rule.minDays) return null;
  const baseline: { day: IsoDay; value: number }[] = [];
  for (let i = Math.max(0, start - rule.baselineDays); i < start; i++) {
    const v = values[i];
    if (v !== null && v !== undefined) baseline.push({ day: days[i] as IsoDay, value: v });
  }
  if (baseline.length < Math.max(1, rule.minBaselineDays)) return null;
  const active = baseline.filter((b) => b.value > 0).length;
  if (active / baseline.length < rule.minActiveShare) return null;
  const mean = weekdayMeans(baseline);
  let expected = 0;
  for (let i = start; i <= end; i++) expected += mean(days[i] as IsoDay);
  return expected >= rule.minExpected ? expected : null;
}

/** A run of silent complete days (indices into `values`) and which of the digest's periods it touches. */
interface Silence {
  start: number;
  end: number;
  current: boolean;
  previous: boolean;
}

/** The complete days of a series, their activity, and its silent runs that touch either period. */
function silencesOf(series: ActivitySeries, ctx: GapContext) {
  const complete = series.points.filter((p) => ctx.partialFrom === null || p.day < ctx.partialFrom);
  const days = complete.map((p) => p.day);
  const values = complete.map(activity);
  const last = complete.length - 1;
  const { from, to, previousFrom, previousTo } = ctx.periods;
  const silences: Silence[] = [];
  for (let i = 0; i <= last; i++) {
    if (values[i] !== 0) continue;
    let end = i;
    while (end < last && values[end + 1] === 0) end++;
    const first = days[i] as IsoDay;
    const final = days[end] as IsoDay;
    const current = first <= to && final >= from;
    const previous = first <= previousTo && final >= previousFrom;
    if (current || previous) silences.push({ start: i, end, current, previous });
    i = end;
  }
  return { days, values, last, silences };
}

function gapsOf(series: ActivitySeries, rule: GapRule, ctx: GapContext): DataGap[] {
  const { days, values, last, silences } = silencesOf(series, ctx);
  const out: DataGap[] = [];
  for (const { start, end, current, previous } of silences) {
    const expected = judge(values, days, start, end, rule);
    if (expected === null) continue;
    const { dimension, key, label } = series;
    out.push({
      dimension,
      key,
      label,
      from: days[start] as IsoDay,
      to: days[end] as IsoDay,
      ongoing: end === last,
      days: end - start + 1,
      expected,
      current,
      previous,
    });
  }
  return out;
}

/**
 * Whether the rule needs days before the series' first one to judge it as it would judge a longer
 * series ending the same day: a silence touching the digest's periods starts within `baselineDays`
 * of the first day (its baseline reaches further back), or at the first day itself (where it began
 * is unknown). A series that starts `baselineDays` before the previous period needs more only for
 * a silence that began before that period and lasts into it — rare, so the drivers ask for the
 * periods and one baseline, and fetch the longer history for the few slices this names.
 *
 * @example needsHistory(series, DEFAULT_GAP_RULE, ctx) // true: "sca" is silent from before the previous period
 */
export function needsHistory(series: ActivitySeries, rule: GapRule, ctx: GapContext): boolean {
  return silencesOf(series, ctx).silences.some(
    (s) => s.start === 0 || (s.start < rule.baselineDays && s.end - s.start + 1 >= rule.minDays),
  );
}

/**
 * Every data gap in the given series that touches the digest's current or previous period, ongoing
 * ones first, then the silences that mattered most (largest expected activity).
 *
 * @example findGaps([{ dimension: "scanner", key: "sca", label: "SCA", points }], DEFAULT_GAP_RULE, ctx)
 *   // [{ key: "sca", from: "2026-11-18", ongoing: true, … }]
 */
export function findGaps(series: readonly ActivitySeries[], rule: GapRule, ctx: GapContext): DataGap[] {
  return series
    .flatMap((s) => gapsOf(s, rule, ctx))
    .sort((a, b) => Number(b.ongoing) - Number(a.ongoing) || b.expected - a.expected);
}

/** What a digest must say about its own completeness. */
export interface Completeness {
  gaps: DataGap[];
  /** A gap falls in the current period: its totals are short. */
  currentIncomplete: boolean;
  /** A gap falls in the previous period: the comparison is skewed. */
  previousIncomplete: boolean;
  /** The first partial day within the range (today so far), or null. */
  partialFrom: IsoDay | null;
}

export function completenessOf(gaps: DataGap[], periods: Periods, partialFrom: IsoDay | null): Completeness {
  return {
    gaps,
    currentIncomplete: gaps.some((g) => g.current),
    previousIncomplete: gaps.some((g) => g.previous),
    partialFrom:
      partialFrom === null || partialFrom > periods.to
        ? null
        : partialFrom < periods.from
          ? periods.from
          : partialFrom,
  };
}
