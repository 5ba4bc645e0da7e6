import type { IsoDay } from "../analytics/types.ts";
import { daysInclusive } from "../insights/days.ts";
import { formatRangeLabel } from "../insights/labels.ts";
import { MAX_RANGE_DAYS, MIN_RANGE_DAY } from "../insights/range-grammar.ts";
import { dayOf, endOfMonth, latestDate, latestMonth, type Unit, yearOf } from "./calendar.ts";
import type { Sentence } from "./sentence.ts";
import type { DayRange } from "./types.ts";
import { MONTHS, WEEKDAYS } from "./vocabulary.ts";

/**
 * What the rules for periods share (src/ask/rules/periods*.ts): a period's checks against what the
 * service answers and its name in the slash command's form, the words of units, months, days and
 * years, and dates said in words. Periods are resolved to days against today in the person's zone.
 */

/**
 * A period found at a position: how many words it took, and the days (or why they cannot be asked
 * for). `rolling` is the slash command's rolling form of a period whose days it names by date (a
 * one-off question keeps the days; a schedule repeats the form: `yesterday`, `lastquarter`, `ytd`).
 */
export type PeriodHit = { len: number; range: DayRange; rolling?: string } | { len: number; problem: string };

export type Hit = PeriodHit | null;

export const UNITS: Readonly<Record<string, Unit>> = {
  day: "day",
  days: "day",
  week: "week",
  weeks: "week",
  month: "month",
  months: "month",
  quarter: "quarter",
  quarters: "quarter",
  year: "year",
  years: "year",
  fortnight: "fortnight",
};

/** Units finer than the service's days. */
export const HOUR_WORDS = new Set(["hour", "hours", "hr", "hrs", "minute", "minutes", "min", "mins"]);

/** What to say to "the last 24 hours": the data is daily, and which days come closest. */
export const hoursProblem = (hours: number) =>
  `The numbers are daily, so I can't look at hours: try “today”, “yesterday” or “the last ${Math.max(2, Math.ceil(hours / 24) + 1)} days”.`;

export const ORDINAL_QUARTERS: Record<string, number> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  last: 0,
};

export const monthNumber = (w: string | undefined) => (w ? MONTHS.indexOf(w as never) + 1 : 0);
export const weekdayNumber = (w: string | undefined) => (w ? WEEKDAYS.indexOf(w as never) + 1 : 0);

/** A day of the month as written: `1`, `1st`, `22nd`. */
export function dayNumber(w: string | undefined): number {
  const m = /^(\d{1,2})(st|nd|rd|th)?$/.exec(w ?? "");
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 31 ? n : 0;
}

export function yearNumber(w: string | undefined): number {
  return /^(19|20)\d\d$/.test(w ?? "") ? Number(w) : 0;
}

/** Checks a resolved period against what the service answers, and names it the command's way. */
export function period(
  from: IsoDay,
  to: IsoDay,
  today: IsoDay,
  spec?: string,
): { range: DayRange } | { problem: string } {
  // Refused here, where it is typed, not later by the command's range check in other words.
  if (from > to)
    return {
      problem: `That period ends before it starts: ${formatRangeLabel(from, from)} is after ${formatRangeLabel(to, to)}. Say the start first, e.g. “from ${formatRangeLabel(to, to)} to ${formatRangeLabel(from, from)}”.`,
    };
  if (from > today) return { problem: `${formatRangeLabel(from, from)} is still to come.` };
  const end = to > today ? today : to;
  if (from < MIN_RANGE_DAY) return { problem: `The data starts in ${MIN_RANGE_DAY.slice(0, 4)}.` };
  const days = daysInclusive(from, end);
  if (days > MAX_RANGE_DAYS)
    return {
      problem: `${formatRangeLabel(from, end)} is ${days} days; I can look at up to ${MAX_RANGE_DAYS} days at a time.`,
    };
  const shape = spec && end === to ? spec : from === end ? from : `${from}..${end}`;
  return { range: { spec: shape, from, to: end } };
}

export const hit = (
  len: number,
  r: { range: DayRange } | { problem: string },
  rolling?: string,
): PeriodHit => ("range" in r && rolling ? { len, ...r, rolling } : { len, ...r });

/** A date said in words: ISO, `October 1st [2025]`, `1 Oct [2025]`, `the 1st of October`. */
export interface SaidDate {
  len: number;
  month: number;
  day: number;
  year: number;
}

export function dateAt(s: Sentence, i: number): SaidDate | null {
  const w = s.free(i);
  if (w === undefined) return null;
  // "the 1st of October"
  if (w === "the" && dayNumber(s.free(i + 1)) > 0) {
    const inner = dateAt(s, i + 1);
    return inner ? { ...inner, len: inner.len + 1 } : null;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(w);
  if (iso) return { len: 1, year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const m = monthNumber(w);
  if (m > 0) {
    let at = i + 1;
    if (s.free(at) === "the") at++;
    const d = dayNumber(s.free(at));
    if (d === 0) return null;
    const y = yearNumber(s.free(at + 1));
    return { len: at + 1 - i + (y ? 1 : 0), month: m, day: d, year: y };
  }
  const d = dayNumber(w);
  if (d > 0) {
    let at = i + 1;
    if (s.free(at) === "of") at++;
    const mm = monthNumber(s.free(at));
    if (mm === 0) return null;
    const y = yearNumber(s.free(at + 1));
    return { len: at + 1 - i + (y ? 1 : 0), month: mm, day: d, year: y };
  }
  return null;
}

export function dayFromSaid(d: SaidDate, today: IsoDay): IsoDay | undefined {
  return d.year ? dayOf(d.year, d.month, d.day) : latestDate(today, d.month, d.day);
}

/**
 * A month said by name at `at`: `October 2025` and `October last year` that year's, else the latest
 * October that has begun. Its days, and how many words it took.
 */
export function namedMonth(
  s: Sentence,
  at: number,
  today: IsoDay,
): { len: number; from: IsoDay; to: IsoDay } | null {
  const m = monthNumber(s.free(at));
  if (m === 0) return null;
  const lastYear = s.match(at + 1, "last year") === 2;
  const year = lastYear ? yearOf(today) - 1 : yearNumber(s.free(at + 1));
  if (!year) return { len: 1, ...latestMonth(today, m) };
  return { len: lastYear ? 3 : 2, from: dayOf(year, m, 1) as IsoDay, to: endOfMonth(year, m) };
}

/** A period as the answer shows it: `Oct 1 – Oct 31, 2026`. */
export const periodLabel = (r: Pick<DayRange, "from" | "to">) => formatRangeLabel(r.from, r.to);

/** Days the period covers. */
export const periodDays = (r: Pick<DayRange, "from" | "to">) => daysInclusive(r.from, r.to);
