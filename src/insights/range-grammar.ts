import type { IsoDay } from "../analytics/types.ts";
import { addDays } from "./days.ts";

/** The syntactic forms of the range grammar, before they are resolved against a clock. */
export type RangeSpec =
  | { kind: "last"; days: number }
  | { kind: NamedRange }
  | { kind: "between"; from: string; to: string }
  | { kind: "day"; day: string };

/** The range used when the user gives none. */
export const DEFAULT_RANGE = "last7d";
/** Largest N of `lastNd`. */
export const MAX_LAST_DAYS = 365;
/** Longest explicit range: a leap year (the service refuses more). */
export const MAX_RANGE_DAYS = 366;
/** Earliest day a range may start on. */
export const MIN_RANGE_DAY: IsoDay = "2000-01-01";

/** The ranges named by a word: calendar days, weeks, months, quarters and the year so far. */
export const NAMED_RANGES = [
  "yesterday",
  "thisweek",
  "lastweek",
  "thismonth",
  "lastmonth",
  "thisquarter",
  "lastquarter",
  "ytd",
] as const;
export type NamedRange = (typeof NAMED_RANGES)[number];

const NAMED: ReadonlySet<string> = new Set(NAMED_RANGES);
const LAST = /^last(\d+)d$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const BETWEEN = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

/** Lower-cases, trims and closes up spaces around `..`; the empty string becomes the default range. */
export function normalizeRangeText(text: string): string {
  const t = text
    .trim()
    .toLowerCase()
    .replace(/\s*\.\.\s*/g, "..");
  return t === "" ? DEFAULT_RANGE : t;
}

/** The form of a normalized range text, or null when it is not range-shaped at all. */
export function matchRangeSpec(normalized: string): RangeSpec | null {
  const last = LAST.exec(normalized);
  if (last) return { kind: "last", days: Number(last[1]) };
  if (NAMED.has(normalized)) return { kind: normalized as NamedRange };
  const between = BETWEEN.exec(normalized);
  if (between) return { kind: "between", from: between[1] as string, to: between[2] as string };
  if (DAY.test(normalized)) return { kind: "day", day: normalized };
  return null;
}

/**
 * Whether one command word is range-shaped, so the command parser can route it to `parseRange`.
 * It checks the shape only: `last0d` or `2026-02-30` count as range words, and `parseRange` then
 * explains exactly what is wrong with them instead of the parser calling them unknown words.
 */
export function isRangeToken(word: string): boolean {
  const w = word.trim().toLowerCase();
  return w !== "" && matchRangeSpec(w) !== null;
}

/** One line of help: what to type and what it means. */
export interface RangeExample {
  text: string;
  meaning: string;
}

/** Help-text examples of every form, with dated examples ending the day before `today`. */
export function rangeExamples(today: IsoDay): RangeExample[] {
  const day = addDays(today, -1);
  return [
    { text: "last7d", meaning: "the last 7 days including today; the default" },
    { text: "last14d, last30d, last90d", meaning: "the last 14, 30 or 90 days including today" },
    { text: "last45d", meaning: `any lastNd with N from 1 to ${MAX_LAST_DAYS}` },
    { text: "thisweek, lastweek", meaning: "Monday to today; last Monday to Sunday" },
    { text: "yesterday", meaning: "the whole day before today" },
    { text: "thismonth, lastmonth", meaning: "the 1st to today; the whole previous month" },
    {
      text: "thisquarter, lastquarter",
      meaning: "the quarter's first day to today; the whole previous calendar quarter",
    },
    { text: "ytd", meaning: "the year to date: January 1st to today" },
    {
      text: `${addDays(day, -14)}..${day}`,
      meaning: `from..to, both included, up to ${MAX_RANGE_DAYS} days`,
    },
    { text: day, meaning: "a single day" },
  ];
}

/** Static examples for help text (dated forms use a fixed example date). */
export const RANGE_EXAMPLES: readonly RangeExample[] = Object.freeze(rangeExamples("2026-11-16"));

const asCode = (texts: string): string =>
  texts
    .split(", ")
    .map((t) => `\`${t}\``)
    .join(", ");

/** One sentence listing every accepted form, appended to every range error. */
export function acceptedRangesText(today: IsoDay): string {
  const list = rangeExamples(today)
    .map((e) => `${asCode(e.text)} (${e.meaning})`)
    .join("; ");
  return `Accepted: ${list}. Days are from ${MIN_RANGE_DAY} up to today.`;
}
