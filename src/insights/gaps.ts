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

/**
 * The activity the baseline predicts over the silent days `start..end`, or null when the run is not a
 * gap. The baseline reaches back no further than `floor`, the day the series is judged from.
 */
function judge(index: GapIndex, floor: number, start: number, end: number, rule: GapRule): number | null {
  if (end - start + 1 < rule.minDays) return null;
  const { values, days } = index;
  // Every digest judges every silence of every slice: read the baseline in place, no list of its days.
  // Each silent day expects the mean of its ISO weekday (1..7) in the baseline, or the overall mean.
  const sums = [0, 0, 0, 0, 0, 0, 0, 0];
  const counts = [0, 0, 0, 0, 0, 0, 0, 0];
  let known = 0;
  let active = 0;
  let all = 0;
  for (let i = Math.max(floor, start - rule.baselineDays); i < start; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    known++;
    if (v > 0) active++;
    const w = isoWeekday(days[i] as IsoDay);
    sums[w] = (sums[w] as number) + v;
    counts[w] = (counts[w] as number) + 1;
    all += v;
  }
  if (known < Math.max(1, rule.minBaselineDays)) return null;
  if (active / known < rule.minActiveShare) return null;
  const overall = all / known;
  let expected = 0;
  for (let i = start; i <= end; i++) {
    const w = isoWeekday(days[i] as IsoDay);
    const n = counts[w] as number;
    expected += n > 0 ? (sums[w] as number) / n : overall;
  }
  return expected >= rule.minExpected ? expected : null;
}

/** A run of silent complete days (indices into the index's days) and which of the digest's periods it touches. */
interface Silence {
  start: number;
  end: number;
  current: boolean;
  previous: boolean;
}

/**
 * A series' complete days read once: their activity and every run of silent days. The rule can then
 * judge the series from any of its days on (`from` below) as it judges a series that starts there —
 * the drivers judge each digest's own days of one longer fetch, and reading the days again for every
 * digest and slice was most of their arithmetic.
 */
export interface GapIndex {
  readonly series: ActivitySeries;
  /** The complete days (before the first partial one), in the series' order. */
  readonly days: readonly IsoDay[];
  readonly values: readonly (number | null)[];
  /** Maximal runs of silent days, ascending: [first, last] index pairs. */
  readonly runs: readonly (readonly [number, number])[];
}

/** Reads `series` for the rule; days from `partialFrom` on are not judged (still being filled). */
export function indexGaps(series: ActivitySeries, partialFrom: IsoDay | null): GapIndex {
  const days: IsoDay[] = [];
  const values: (number | null)[] = [];
  for (const p of series.points) {
    if (partialFrom !== null && p.day >= partialFrom) continue;
    days.push(p.day);
    values.push(activity(p));
  }
  const runs: [number, number][] = [];
  for (let i = 0; i < values.length; i++) {
    if (values[i] !== 0) continue;
    let end = i;
    while (end < values.length - 1 && values[end + 1] === 0) end++;
    runs.push([i, end]);
    i = end;
  }
  return { series, days, values, runs };
}

/**
 * The index of the first complete day on or after `day` (the number of complete days when none):
 * where a digest's own days start in a longer series. Needs the series' days ascending.
 */
export function gapIndexFrom(index: GapIndex, day: IsoDay): number {
  let lo = 0;
  let hi = index.days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((index.days[mid] as IsoDay) < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The silent runs of the series from its `from`th complete day on (a run that began earlier starts
 * there), that touch either period: what a series starting at that day would show.
 */
function silencesFrom(index: GapIndex, from: number, periods: Periods): Silence[] {
  const { days, runs } = index;
  const out: Silence[] = [];
  // Runs are ascending and disjoint: skip those that ended before `from` without reading them.
  let lo = 0;
  let hi = runs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((runs[mid] as readonly [number, number])[1] < from) lo = mid + 1;
    else hi = mid;
  }
  const { from: curFrom, to, previousFrom, previousTo } = periods;
  for (let r = lo; r < runs.length; r++) {
    const [first, end] = runs[r] as readonly [number, number];
    const start = Math.max(first, from);
    const firstDay = days[start] as IsoDay;
    const finalDay = days[end] as IsoDay;
    const current = firstDay <= to && finalDay >= curFrom;
    const previous = firstDay <= previousTo && finalDay >= previousFrom;
    if (current || previous) out.push({ start, end, current, previous });
  }
  return out;
}

/** The gaps of the series from its `from`th complete day on (see `GapIndex`). */
export function gapsFrom(index: GapIndex, from: number, rule: GapRule, periods: Periods): DataGap[] {
  const out: DataGap[] = [];
  const last = index.days.length - 1;
  for (const { start, end, current, previous } of silencesFrom(index, from, periods)) {
    const expected = judge(index, from, start, end, rule);
    if (expected === null) continue;
    const { dimension, key, label } = index.series;
    out.push({
      dimension,
      key,
      label,
      from: index.days[start] as IsoDay,
      to: index.days[end] as IsoDay,
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
 * of the first day (its baseline reaches further back, unless the days of it the series holds
 * already rule the silence out), or at the first day itself (where it began is unknown). The drivers
 * ask for each slice's window (or its periods alone) and a few days before, and fetch the longer
 * history for the few slices this names.
 *
 * @example needsHistory(series, DEFAULT_GAP_RULE, ctx) // true: "sca" is silent from before the previous period
 */
export function needsHistory(series: ActivitySeries, rule: GapRule, ctx: GapContext): boolean {
  return needsHistoryFrom(indexGaps(series, ctx.partialFrom), 0, rule, ctx.periods);
}

/** `needsHistory` of the series from its `from`th complete day on (see `GapIndex`). */
export function needsHistoryFrom(index: GapIndex, from: number, rule: GapRule, periods: Periods): boolean {
  return historyDaysNeeded(index, from, rule, periods) !== null;
}

/**
 * How many days before its `from`th day the series must reach for the rule to judge it as it judges
 * the longest series ending the same day: null when none (`needsHistoryFrom` is false), Infinity
 * when a silence starts at that day itself (where it began is unknown), else the most any silence's
 * baseline reaches back past that day. A silence that starts later keeps that start whatever comes
 * before the series' first day (the day before it is not silent), and its baseline is the
 * `baselineDays` before it, so these days are all the rule reads; every other silence touching the
 * periods would contain the first day (and answer Infinity). The drivers fetch only these days of
 * a slice's history, not the year.
 */
export function historyDaysNeeded(
  index: GapIndex,
  from: number,
  rule: GapRule,
  periods: Periods,
): number | null {
  let need: number | null = null;
  for (const s of silencesFrom(index, from, periods)) {
    if (s.start === from) return Number.POSITIVE_INFINITY;
    const reach = rule.baselineDays - (s.start - from);
    if (reach > 0 && s.end - s.start + 1 >= rule.minDays && !tooQuietBefore(index, from, s.start, rule))
      need = Math.max(need ?? 0, reach);
  }
  return need;
}

/**
 * Whether the days of a silence's baseline that the series already holds (from its `from`th day on)
 * have so many inactive days that no baseline holding them is active on the rule's share of its days,
 * whatever the days before them: the silence is then no gap, and its history need not be asked. A
 * slice that is quiet every weekend is the common case; asking its baseline would cost a request for
 * a silence the rule always dismisses. The arithmetic is `judge`'s: active days over known days.
 */
function tooQuietBefore(index: GapIndex, from: number, start: number, rule: GapRule): boolean {
  const first = start - rule.baselineDays;
  let known = 0;
  let inactive = 0;
  for (let i = Math.max(from, first); i < start; i++) {
    const v = index.values[i];
    if (v === null || v === undefined) continue;
    known++;
    if (!(v > 0)) inactive++;
  }
  if (inactive === 0) return false;
  // The whole baseline holds these days and at most the days of it before the series' `from`th, each
  // perhaps known and active; the share only grows with the days, so the most it can be is this.
  const most = known + Math.max(0, from - first);
  return (most - inactive) / most < rule.minActiveShare;
}

/** Ongoing gaps first, then the silences that mattered most (largest expected activity). */
export function byImportance(gaps: DataGap[]): DataGap[] {
  return gaps.sort((a, b) => Number(b.ongoing) - Number(a.ongoing) || b.expected - a.expected);
}

/**
 * Every data gap in the given series that touches the digest's current or previous period, ongoing
 * ones first, then the silences that mattered most (largest expected activity).
 *
 * @example findGaps([{ dimension: "scanner", key: "sca", label: "SCA", points }], DEFAULT_GAP_RULE, ctx)
 *   // [{ key: "sca", from: "2026-11-18", ongoing: true, … }]
 */
export function findGaps(series: readonly ActivitySeries[], rule: GapRule, ctx: GapContext): DataGap[] {
  return byImportance(series.flatMap((s) => gapsFrom(indexGaps(s, ctx.partialFrom), 0, rule, ctx.periods)));
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
