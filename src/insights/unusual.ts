import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "./day-point.ts";
import { addDays, isoWeekday } from "./days.ts";
import { type DataGap, DEFAULT_GAP_RULE, findGaps, type GapRule } from "./gaps.ts";

/**
 * "Unusual" against a weekday baseline. Security activity has a weekly rhythm (busy Mondays, quiet
 * weekends), so a day is compared with the same weekday of the weeks before it, never with the day
 * before: a Monday with a Monday's load is normal, a Tuesday at three times a Tuesday is not.
 *
 * The band around the median of those weekdays is robust: its half-width is `sensitivity` robust
 * standard deviations (1.4826 × the median absolute deviation, which one odd week cannot inflate the
 * way it inflates a standard deviation), taken as at least the square root of the median (counting
 * noise) and a tenth of it (eight values are few), never wider than ×/÷ `ratio` around the median (a
 * noisy history must not hide a spike), and never narrower than `floor` either side (counts of a few
 * never alert). Pure: the caller fetches the series; days are the service's calendar days.
 */

export type UnusualMeasure = "findings" | "violations" | "fixes";

export interface UnusualRule {
  /** Half-width of the band in robust standard deviations [4]. */
  sensitivity: number;
  /** Same weekdays looked back at [8]. */
  weeks: number;
  /** Fewest of them that must be known for a verdict [6]. */
  minWeeks: number;
  /** Smallest departure from the median that can be unusual [20]. */
  floor: number;
  /** A day at this multiple of the median, or at its inverse fraction, is outside whatever the spread [2]. */
  ratio: number;
}

/** Named sensitivities: the band's half-width in robust standard deviations. */
export const SENSITIVITY_LEVELS = { low: 6, normal: 4, high: 3 } as const;
export type SensitivityLevel = keyof typeof SENSITIVITY_LEVELS;

export const DEFAULT_UNUSUAL_RULE: UnusualRule = {
  sensitivity: SENSITIVITY_LEVELS.normal,
  weeks: 8,
  minWeeks: 6,
  floor: 20,
  ratio: 2,
};

/** The consistency constant that makes the MAD estimate a normal distribution's standard deviation. */
const MAD_TO_SD = 1.4826;

/** Median of a non-empty list (mean of the two middle values for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Median absolute deviation from `center` (the median when not given). */
export function mad(values: readonly number[], center = median(values)): number {
  return median(values.map((v) => Math.abs(v - center)));
}

/** What a usual day looks like: values strictly outside `low`..`high` are unusual. */
export interface Band {
  median: number;
  /** The robust standard deviation the band was built from (after its floors). */
  spread: number;
  low: number;
  high: number;
}

/**
 * The band of a baseline (the same weekday's earlier values).
 *
 * @example weekdayBand([150, 170, 180, 185, 175, 190, 160, 200], DEFAULT_UNUSUAL_RULE)
 *   // { median: 177.5, spread: 17.75, low: 106.5, high: 248.5 }
 */
export function weekdayBand(baseline: readonly number[], rule: UnusualRule = DEFAULT_UNUSUAL_RULE): Band {
  const m = median(baseline);
  const spread = Math.max(MAD_TO_SD * mad(baseline, m), Math.sqrt(Math.max(m, 1)), 0.1 * m);
  const reach = rule.sensitivity * spread;
  const high = Math.max(Math.min(m + reach, m * rule.ratio), m + rule.floor);
  const low = Math.max(0, Math.min(Math.max(m - reach, m / rule.ratio), m - rule.floor));
  return { median: m, spread, low, high };
}

export type UnusualDirection = "high" | "low" | "within";

export type UnusualJudgement =
  | {
      kind: "judged";
      day: IsoDay;
      /** ISO weekday of `day`, 1 = Monday. */
      weekday: number;
      value: number;
      band: Band;
      /** Earlier same weekdays the band was built from (at most `rule.weeks`). */
      weeks: number;
      direction: UnusualDirection;
      /** (value − median) / spread: how far out, in robust standard deviations. */
      deviations: number;
      /** The earlier same weekday closest to the median (the latest on a tie): "a usual Tuesday". */
      typical: { day: IsoDay; value: number };
    }
  | {
      kind: "unknown";
      day: IsoDay;
      /**
       * `missing`: the service left the day out; `gap`: the data-gap rule finds the data silent that
       * day; `silent`: no activity at all on a weekday that is normally busy (more likely missing data
       * than a quiet day); `history`: too few earlier weekdays known.
       */
      why: "missing" | "gap" | "silent" | "history";
      /** Earlier same weekdays known. */
      weeks: number;
      gap?: DataGap;
    };

/**
 * What an unusual condition reads: the daily series of the digest's filters over the baseline weeks
 * and the day judged (the latest complete one), as the digest service fetched it.
 */
export interface WeekdaySeries {
  /** The day judged: the latest complete day in the subscription's zone. */
  day: IsoDay;
  /** The reader's yesterday (the message says "yesterday" when the day judged is that). */
  yesterday: IsoDay;
  points: DayPoint[];
  /**
   * Silences of single scanners and asset groups (the drivers' data gaps), when known: a day one of
   * them was silent is a day with a data gap, though the total may look merely low.
   */
  sliceGaps?: DataGap[];
}

const WEEKDAY_NAMES = ["", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `Tuesday` for a Tuesday. */
export function weekdayName(day: IsoDay): string {
  return WEEKDAY_NAMES[isoWeekday(day)] as string;
}

/** `Tue Nov 17` for 2026-11-17. */
export function dayWords(day: IsoDay): string {
  const month = MONTHS[Number(day.slice(5, 7)) - 1] ?? day.slice(5, 7);
  return `${weekdayName(day).slice(0, 3)} ${month} ${Number(day.slice(8, 10))}`;
}

const measureValue = (p: DayPoint, m: UnusualMeasure): number | null =>
  m === "fixes" ? p.fixed : m === "findings" ? p.findings : p.violations;

/** Everything a scan reports that day, as the data-gap rule counts it. */
function activity(p: DayPoint): number | null {
  if (p.findings === null || p.fixed === null || p.merged === null) return null;
  return p.findings + p.fixed + p.merged;
}

/** The days the series must hold for a verdict on `day`: the baseline weeks before it, and the day. */
export function baselineRange(
  day: IsoDay,
  rule: UnusualRule = DEFAULT_UNUSUAL_RULE,
): { from: IsoDay; to: IsoDay } {
  return { from: addDays(day, -7 * rule.weeks), to: day };
}

/**
 * Judges `day` of a total series (as the digest's filters select it) against the same weekday of the
 * `rule.weeks` weeks before it. Days the data-gap rule calls silent (in the total, or in one scanner
 * or asset group of `sliceGaps`) are never judged; those of the total are left out of the baseline; so is a day the service left out, and a day without any activity on a
 * weekday that is normally busy. The series must hold complete days only: the caller picks the
 * latest complete day, never today.
 *
 * @example judgeDay(points, "violations", "2026-11-17").direction // "high"
 */
export function judgeDay(
  points: readonly DayPoint[],
  measure: UnusualMeasure,
  day: IsoDay,
  rule: UnusualRule = DEFAULT_UNUSUAL_RULE,
  gapRule: GapRule = DEFAULT_GAP_RULE,
  sliceGaps: readonly DataGap[] = [],
): UnusualJudgement {
  const known = points.filter((p) => p.day <= day);
  const byDay = new Map(known.map((p) => [p.day, p]));
  // Only silent days can make a gap: most series have none, and need no search.
  const gaps = known.some((p) => activity(p) === 0)
    ? findGaps([{ dimension: "total", key: "*", label: "all data", points: known }], gapRule, {
        periods: {
          from: day,
          to: day,
          previousFrom: baselineRange(day, rule).from,
          previousTo: addDays(day, -1),
        },
        partialFrom: addDays(day, 1),
      })
    : [];
  const silentOn = (d: IsoDay) => gaps.find((g) => g.from <= d && d <= g.to);
  const candidates: { day: IsoDay; value: number; activity: number }[] = [];
  for (let w = 1; w <= rule.weeks; w++) {
    const d = addDays(day, -7 * w);
    const p = byDay.get(d);
    const v = p ? measureValue(p, measure) : null;
    const a = p ? activity(p) : null;
    if (p && v !== null && a !== null && !silentOn(d)) candidates.push({ day: d, value: v, activity: a });
  }
  // On a weekday that is normally busy, a day with no activity at all is missing data, not a quiet
  // day: the gap rule needs two such days in a row to call an outage, one is already no evidence.
  const busy = median(candidates.map((b) => b.activity)) >= gapRule.minExpected;
  const baseline = busy ? candidates.filter((b) => b.activity > 0) : candidates;
  const weeks = baseline.length;
  const p = byDay.get(day);
  const value = p ? measureValue(p, measure) : null;
  if (!p || value === null) return { kind: "unknown", day, why: "missing", weeks };
  const gap = silentOn(day) ?? sliceGaps.find((g) => g.from <= day && day <= g.to);
  if (gap) return { kind: "unknown", day, why: "gap", weeks, gap };
  if (busy && activity(p) === 0) return { kind: "unknown", day, why: "silent", weeks };
  if (weeks < rule.minWeeks) return { kind: "unknown", day, why: "history", weeks };
  const band = weekdayBand(
    baseline.map((b) => b.value),
    rule,
  );
  const direction: UnusualDirection = value > band.high ? "high" : value < band.low ? "low" : "within";
  const typical = baseline.reduce((best, b) =>
    Math.abs(b.value - band.median) < Math.abs(best.value - band.median) ? b : best,
  );
  return {
    kind: "judged",
    day,
    weekday: isoWeekday(day),
    value,
    band,
    weeks,
    direction,
    deviations: (value - band.median) / band.spread,
    typical: { day: typical.day, value: typical.value },
  };
}
