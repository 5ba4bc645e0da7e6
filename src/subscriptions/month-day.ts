import type { IsoDay } from "../analytics/types.ts";
import { isoWeekday } from "../insights/days.ts";
import { type MonthDay, type Nth, WEEKDAYS, type Weekday } from "./types.ts";

/**
 * The day of the month a monthly or quarterly schedule runs on: its canonical text (stored on the
 * record, typed in the command), its words, whether a calendar day is one, and its cron fields.
 * Pure.
 *
 * Cron (and BullMQ's cron-parser, with its `L` and `#` extensions) says most of them exactly: day 1–28,
 * the 31st as the month's last day (`L`), the nth weekday (`1#1`) and the last weekday (`5L`). Two
 * cannot be said: the 29th or 30th that falls back to a short month's last day, and the first or last
 * working day. They fire on a superset of days (the 28th to the 30th; the 1st to the 3rd; the 26th to
 * the 31st) and carry a gate, this module's own text of the day, that lets through only the fire
 * whose local date is a run day (`isRunDay`). The fan-out checks the gate before it deals a fire out,
 * and the next-runs preview skips the same fires, so what people see listed is what is delivered.
 */

const NTH_WORDS: Record<string, Nth> = {
  first: 1,
  "1st": 1,
  second: 2,
  "2nd": 2,
  third: 3,
  "3rd": 3,
  fourth: 4,
  "4th": 4,
  last: "last",
};
const NTH_TEXT: Record<Exclude<Nth, "last">, string> = { 1: "first", 2: "second", 3: "third", 4: "fourth" };
const DAY_NAMES: Record<Weekday, string> = {
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
  sun: "Sunday",
};
const CRON_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const nthText = (nth: Nth) => (nth === "last" ? "last" : NTH_TEXT[nth]);

/** `1st`, `2nd`, `23rd`, `31st`. */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${suffix}`;
}

/**
 * The canonical text: `1` … `31`, `first-mon` … `fourth-sun`, `last-fri`, `first-workday`,
 * `last-workday`. Short and free of ':' and ',' (it is a hash field and a gate).
 */
export function monthDayText(on: MonthDay): string {
  if (on.kind === "day") return String(on.day);
  if (on.kind === "weekday") return `${nthText(on.nth)}-${on.weekday}`;
  return `${on.which}-workday`;
}

/** The month day of a canonical text, or null when it is not one. */
export function parseMonthDayText(text: string): MonthDay | null {
  if (/^([1-9]|[12]\d|3[01])$/.test(text)) return { kind: "day", day: Number(text) };
  const m = /^(first|second|third|fourth|last)-(mon|tue|wed|thu|fri|sat|sun|workday)$/.exec(text);
  if (!m) return null;
  const nth = NTH_WORDS[m[1] as string] as Nth;
  if (m[2] === "workday")
    return nth === 1 || nth === "last" ? { kind: "workday", which: nth === 1 ? "first" : "last" } : null;
  return { kind: "weekday", nth, weekday: m[2] as Weekday };
}

/**
 * The month day in words, after "on".
 *
 * @example monthDayWords({ kind: "weekday", nth: 1, weekday: "mon" }) // "the first Monday"
 * @example monthDayWords({ kind: "day", day: 30 }) // "the 30th (or the last day of a shorter month)"
 */
export function monthDayWords(on: MonthDay): string {
  if (on.kind === "weekday") return `the ${nthText(on.nth)} ${DAY_NAMES[on.weekday]}`;
  if (on.kind === "workday") return `the ${on.which} working day (Mon–Fri)`;
  if (on.day === 31) return "the last day";
  return on.day >= 29
    ? `the ${ordinal(on.day)} (or the last day of a shorter month)`
    : `the ${ordinal(on.day)}`;
}

/**
 * The month day as the slash command takes it: `1st`, `last day`, `first mon`, `last workday`.
 *
 * @example monthDayCommand({ kind: "weekday", nth: 2, weekday: "tue" }) // "second tue"
 */
export function monthDayCommand(on: MonthDay): string {
  if (on.kind === "weekday") return `${nthText(on.nth)} ${on.weekday}`;
  if (on.kind === "workday") return `${on.which} workday`;
  return on.day === 31 ? "last day" : ordinal(on.day);
}

const WORKDAY = new Set(["workday", "workingday", "businessday", "weekday"]);
const DAY_WORD = /^([1-9]|[12]\d|3[01])(st|nd|rd|th)?$/;

/**
 * A month day as people type it, from `words[i]` (lower-case): `1st`, `15`, `15th`, `first mon`,
 * `2nd tuesday`, `last fri`, `last workday`, `last working day`, `first business day`, `first day`,
 * `last day`.
 * Null when the words there are not one; `len` is how many words it took.
 */
export function readMonthDay(words: readonly string[], i: number): { on: MonthDay; len: number } | null {
  const w = words[i] ?? "";
  const next = words[i + 1] ?? "";
  const nth = NTH_WORDS[w];
  if (nth !== undefined) {
    const day = weekdayOf(next);
    if (day) return { on: { kind: "weekday", nth, weekday: day }, len: 2 };
    const two = WORKDAY.has(next) ? 2 : WORKDAY.has(`${next}${words[i + 2] ?? ""}`) ? 3 : 0;
    if (two > 0 && (nth === 1 || nth === "last"))
      return { on: { kind: "workday", which: nth === 1 ? "first" : "last" }, len: two };
    if (next === "day" && (nth === 1 || nth === "last"))
      return { on: { kind: "day", day: nth === 1 ? 1 : 31 }, len: 2 };
  }
  const m = DAY_WORD.exec(w);
  if (m && (m[2] === undefined || m[2] === ordinal(Number(m[1])).slice(-2)))
    return { on: { kind: "day", day: Number(m[1]) }, len: 1 };
  return null;
}

/** `mon`, `monday`, `mondays` → `mon`. */
function weekdayOf(word: string): Weekday | undefined {
  const day = word.slice(0, 3) as Weekday;
  if (!WEEKDAYS.includes(day)) return undefined;
  const full = DAY_NAMES[day].toLowerCase();
  return word === day || word === full || word === `${full}s` ? day : undefined;
}

/** Days in the month of `day` (28–31). */
function monthLength(day: IsoDay): number {
  return new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).getUTCDate();
}

/** The working day (Mon–Fri) at or after (`step` 1) or at or before (`step` −1) day `d` of `day`'s month. */
function workdayFrom(day: IsoDay, d: number, step: 1 | -1): number {
  const first = isoWeekday(`${day.slice(0, 8)}01`);
  let at = d;
  // Day `at`'s ISO weekday is (first + at − 2) mod 7 + 1; 6 and 7 are the weekend.
  while (((first + at - 2) % 7) + 1 > 5) at += step;
  return at;
}

/**
 * Whether the calendar day `day` (a local date, `YYYY-MM-DD`) is a run day of `on`.
 *
 * @example isRunDay({ kind: "day", day: 31 }, "2027-02-28") // true: February's last day
 * @example isRunDay({ kind: "workday", which: "last" }, "2027-01-29") // true: Jan 31 is a Sunday
 */
export function isRunDay(on: MonthDay, day: IsoDay): boolean {
  const d = Number(day.slice(8, 10));
  const length = monthLength(day);
  if (on.kind === "day") return d === Math.min(on.day, length);
  if (on.kind === "workday")
    return d === (on.which === "first" ? workdayFrom(day, 1, 1) : workdayFrom(day, length, -1));
  if (WEEKDAYS[isoWeekday(day) - 1] !== on.weekday) return false;
  return on.nth === "last" ? d + 7 > length : Math.ceil(d / 7) === on.nth;
}

/**
 * Counted from the month's end (the last day, the last weekday, the last working day): a quarterly
 * schedule runs it in the quarter's last month, so "quarterly on the last day" is the quarter's last.
 */
export function countsFromEnd(on: MonthDay): boolean {
  if (on.kind === "day") return on.day === 31;
  return on.kind === "weekday" ? on.nth === "last" : on.which === "last";
}

/**
 * The day-of-month and day-of-week fields of a cron pattern that fires on every run day of `on`, and
 * the gate when it fires on more days than that (the gate is the month day's text, see isRunDay).
 * Only one of the two fields is ever restricted: cron fires when either matches if both are.
 */
export function monthDayCron(on: MonthDay): { dom: string; dow: string; gate?: string } {
  if (on.kind === "weekday") {
    const day = CRON_DAY[on.weekday];
    return { dom: "*", dow: on.nth === "last" ? `${day}L` : `${day}#${on.nth}` };
  }
  if (on.kind === "workday")
    return { dom: on.which === "first" ? "1-3" : "26-31", dow: "*", gate: monthDayText(on) };
  if (on.day === 31) return { dom: "L", dow: "*" };
  if (on.day >= 29) return { dom: `28-${on.day}`, dow: "*", gate: monthDayText(on) };
  return { dom: String(on.day), dow: "*" };
}

/** Whether a gated slot's fire on the local day `day` goes out; an unknown gate lets nothing through. */
export function gateOpen(gate: string, day: IsoDay): boolean {
  const on = parseMonthDayText(gate);
  return on !== null && isRunDay(on, day);
}
