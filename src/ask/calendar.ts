import type { IsoDay } from "../analytics/types.ts";
import { addDays, isoWeekday, isValidIsoDay, startOfMonth } from "../insights/days.ts";

/**
 * Calendar arithmetic the questions need beyond the slash command's: whole months, quarters and
 * years, weekdays looked back for, and dates named without a year. Pure, on `YYYY-MM-DD` strings.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export const yearOf = (day: IsoDay) => Number(day.slice(0, 4));
export const monthOf = (day: IsoDay) => Number(day.slice(5, 7));

/** The `YYYY-MM-DD` of a year, month (1–12, may overflow either way) and day, or undefined when impossible. */
export function dayOf(year: number, month: number, day: number): IsoDay | undefined {
  const y = year + Math.floor((month - 1) / 12);
  const m = (((month - 1) % 12) + 12) % 12;
  const iso = `${pad(y, 4)}-${pad(m + 1)}-${pad(day)}`;
  return isValidIsoDay(iso) ? iso : undefined;
}

/** The last day of a month. */
export function endOfMonth(year: number, month: number): IsoDay {
  const next = dayOf(year, month + 1, 1) as IsoDay;
  return addDays(next, -1);
}

/** The same day `n` months later (or earlier); the 31st becomes the month's last day when it has none. */
export function addMonths(day: IsoDay, n: number): IsoDay {
  const y = yearOf(day);
  const m = monthOf(day) + n;
  const d = Number(day.slice(8, 10));
  const last = endOfMonth(y, m);
  return dayOf(y, m, Math.min(d, Number(last.slice(8, 10)))) as IsoDay;
}

/** Quarter 1–4 of a day. */
export const quarterOf = (day: IsoDay) => Math.floor((monthOf(day) - 1) / 3) + 1;

/** First and last day of quarter `q` (1–4) of `year`. */
export function quarterDays(year: number, q: number): { from: IsoDay; to: IsoDay } {
  const first = (q - 1) * 3 + 1;
  return { from: dayOf(year, first, 1) as IsoDay, to: endOfMonth(year, first + 2) };
}

/** Monday of the ISO week of `day`. */
export const mondayOf = (day: IsoDay) => addDays(day, 1 - isoWeekday(day));

/** The units periods are counted in. A fortnight has no place in the calendar: it is only 14 days. */
export type Unit = "day" | "week" | "fortnight" | "month" | "quarter" | "year";

/** How long one of each unit is: a count of days, or of calendar months. */
export const UNIT_LENGTH: Record<Unit, { days: number } | { months: number }> = {
  day: { days: 1 },
  week: { days: 7 },
  fortnight: { days: 14 },
  month: { months: 1 },
  quarter: { months: 3 },
  year: { months: 12 },
};

/** The day `n` of `unit` before `day` (the 31st one month back is the 30th where there is no 31st). */
export function unitsBefore(day: IsoDay, unit: Unit, n: number): IsoDay {
  const length = UNIT_LENGTH[unit];
  return "months" in length ? addMonths(day, -length.months * n) : addDays(day, -length.days * n);
}

/** The whole week, month, quarter or year of the calendar that `day` is in; a day's day; a fortnight's none. */
export function calendarUnit(unit: Unit, day: IsoDay): { from: IsoDay; to: IsoDay } | undefined {
  switch (unit) {
    case "day":
      return { from: day, to: day };
    case "week": {
      const monday = mondayOf(day);
      return { from: monday, to: addDays(monday, 6) };
    }
    case "month":
      return { from: startOfMonth(day), to: endOfMonth(yearOf(day), monthOf(day)) };
    case "quarter":
      return quarterDays(yearOf(day), quarterOf(day));
    case "year":
      return { from: dayOf(yearOf(day), 1, 1) as IsoDay, to: dayOf(yearOf(day), 12, 31) as IsoDay };
    default:
      return undefined;
  }
}

/**
 * The latest `weekday` (1 = Monday … 7 = Sunday) on or before `today`; `strictly`: before today
 * ("last Monday" said on a Monday means a week ago).
 */
export function lastWeekday(today: IsoDay, weekday: number, strictly: boolean): IsoDay {
  let back = (isoWeekday(today) - weekday + 7) % 7;
  if (strictly && back === 0) back = 7;
  return addDays(today, -back);
}

/**
 * A month and day said without a year: this year's when it has begun, else last year's (nobody asks
 * about a date to come). Undefined for an impossible date (February 30).
 */
export function latestDate(today: IsoDay, month: number, day: number): IsoDay | undefined {
  const thisYear = dayOf(yearOf(today), month, day);
  if (thisYear && thisYear <= today) return thisYear;
  return dayOf(yearOf(today) - 1, month, day) ?? (month === 2 && day === 29 ? undefined : thisYear);
}

/** The latest month `month` (1–12) that has begun: this year's, or last year's when it is still to come. */
export function latestMonth(today: IsoDay, month: number): { from: IsoDay; to: IsoDay } {
  const year = month <= monthOf(today) ? yearOf(today) : yearOf(today) - 1;
  return { from: dayOf(year, month, 1) as IsoDay, to: endOfMonth(year, month) };
}

/** The latest quarter `q` that has begun. */
export function latestQuarter(today: IsoDay, q: number): { from: IsoDay; to: IsoDay } {
  const year = q <= quarterOf(today) ? yearOf(today) : yearOf(today) - 1;
  return quarterDays(year, q);
}

/** The same day a year earlier (February 29 becomes February 28). */
export function yearEarlier(day: IsoDay): IsoDay {
  return addMonths(day, -12);
}

export { addDays, isoWeekday, startOfMonth };
