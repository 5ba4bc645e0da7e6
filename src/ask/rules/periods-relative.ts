import type { IsoDay } from "../../analytics/types.ts";
import { MAX_LAST_DAYS } from "../../insights/range-grammar.ts";
import {
  addDays,
  addMonths,
  calendarUnit,
  dayOf,
  isoWeekday,
  lastWeekday,
  mondayOf,
  quarterDays,
  quarterOf,
  startOfMonth,
  type Unit,
  unitsBefore,
  yearOf,
} from "../calendar.ts";
import { type Hit, HOUR_WORDS, hit, hoursProblem, type PeriodHit, period, UNITS } from "../period-core.ts";
import type { Sentence } from "../sentence.ts";
import { numberOf } from "../vocabulary.ts";
import type { Rule } from "./rule.ts";

/**
 * Periods said relative to today: "the last 30 days", "last week", "this month", "year to date",
 * "3 days ago", "the week before last". Each keeps the slash command's form when there is one.
 */

type PeriodRule = Rule<PeriodHit>;

/** Words after a span that end it yesterday: "not including today", "ending yesterday". */
function untilYesterday(s: Sentence, at: number): number {
  return Math.max(
    s.match(at, "not including|counting today"),
    s.match(at, "excluding|without today"),
    s.match(at, "ending|through|until|till yesterday"),
  );
}

/** Words that make the units whole ones of the calendar: "the last 2 full weeks". */
const WHOLE = "full|complete|whole|entire";

/**
 * `last|past|previous N units`: the N units ending today (weeks and days in the command's `lastNd`);
 * ending yesterday when said so ("the last 7 days not including today", "the 7 days ending
 * yesterday"); `N full weeks|months|quarters` are the whole ones before this one, and `N full days`
 * end yesterday.
 */
function lastN(s: Sentence, i: number, today: IsoDay): Hit {
  let lead = Math.max(0, s.match(i, "last|past|previous|prior"));
  const saidLast = lead > 0;
  // "the last few days": no number to look at, so the person is asked for one.
  const vague = s.match(i + lead, "few|several|couple");
  if (lead > 0 && vague === 1 && UNITS[s.free(i + lead + 1) ?? ""] && s.free(i + lead) !== "couple") {
    const unit = s.free(i + lead + 1) as string;
    return {
      len: lead + 2,
      problem: `“${s.free(i + lead)} ${unit}” is not a number of ${unit}: say how many, as in “the last 3 ${unit}”.`,
    };
  }
  // "the past couple of weeks": two.
  const couple = s.match(i + lead, "couple of");
  if (couple === 2) lead += 1;
  // "last 30d", "past 2w": the number and its unit in one word, as in the command's own `last30d`.
  const joined = /^(\d{1,3})([dwh])$/.exec(s.free(i + lead) ?? "");
  const n = couple === 2 ? 2 : joined ? Number(joined[1]) : numberOf(s.free(i + lead));
  const whole = joined ? 0 : Math.max(0, s.match(i + lead + 1, WHOLE));
  const unitAt = i + lead + 1 + whole;
  if (saidLast && n !== undefined && n >= 1 && (joined?.[2] === "h" || HOUR_WORDS.has(s.free(unitAt) ?? "")))
    return { len: lead + (joined ? 1 : 2 + whole), problem: hoursProblem(n) };
  const unit = joined ? (joined[2] === "d" ? "day" : "week") : UNITS[s.free(unitAt) ?? ""];
  if (n === undefined || !unit || n < 1) return null;
  let len = lead + (joined ? 1 : 2 + whole);
  const yesterday = untilYesterday(s, i + len);
  // Without "last" it is a count ("5 days"), unless its end is said ("the 7 days ending yesterday").
  if (!saidLast && yesterday <= 0) return null;
  len += Math.max(0, yesterday);
  const days = unit === "day" ? n : unit === "week" ? 7 * n : unit === "fortnight" ? 14 * n : 0;
  if (whole > 0 && unit !== "day") {
    // Whole weeks, months or quarters: the n before this one.
    const current = calendarUnit(unit === "fortnight" ? "week" : unit, today) as { from: IsoDay };
    return hit(len, period(unitsBefore(current.from, unit, n), addDays(current.from, -1), today));
  }
  const end = yesterday > 0 || whole > 0 ? addDays(today, -1) : today;
  if (days > 0) {
    if (days > MAX_LAST_DAYS)
      return { len, problem: `The last ${days} days is more than I can look at (${MAX_LAST_DAYS} at most).` };
    return hit(len, period(addDays(end, 1 - days), end, today, end === today ? `last${days}d` : undefined));
  }
  const months = unit === "month" ? n : unit === "quarter" ? 3 * n : 12 * n;
  if (months === 12 && end === today) return hit(len, period(addDays(today, -364), today, today, "last365d"));
  return hit(len, period(addDays(addMonths(end, -months), 1), end, today));
}

/** `last|previous|past unit`: the whole unit before this one; "past" means the span ending today. */
export function lastUnit(s: Sentence, i: number, today: IsoDay): Hit {
  const lead = s.match(i, "last|past|previous|prior");
  if (lead < 0) return null;
  // "the last full week": the whole one before this, as "last week" is.
  const whole = Math.max(0, s.match(i + 1, WHOLE));
  const word = s.free(i + 1 + whole);
  const past = s.free(i) === "past" && whole === 0;
  const len = 2 + whole;
  if (HOUR_WORDS.has(word ?? "")) return { len, problem: hoursProblem(1) };
  if (word === "weekend") {
    // The latest Saturday (today on a Saturday); on a weekend day that one is still going on, so the
    // last weekend is the one before it.
    const saturday = lastWeekday(today, 6, false);
    const start = isoWeekday(today) >= 6 ? addDays(saturday, -7) : saturday;
    return hit(len, period(start, addDays(start, 1), today));
  }
  switch (UNITS[word ?? ""]) {
    case "day": {
      // "the last full day" is yesterday: today is not over.
      const day = whole > 0 ? addDays(today, -1) : today;
      return hit(len, period(day, day, today, whole > 0 ? undefined : "last1d"));
    }
    case "week":
      return past
        ? hit(len, period(addDays(today, -6), today, today, "last7d"))
        : hit(len, period(addDays(mondayOf(today), -7), addDays(mondayOf(today), -1), today, "lastweek"));
    case "fortnight":
      return hit(len, period(addDays(today, -13), today, today, "last14d"));
    case "month": {
      if (past) return hit(len, period(addDays(today, -29), today, today, "last30d"));
      const end = addDays(startOfMonth(today), -1);
      return hit(len, period(startOfMonth(end), end, today, "lastmonth"));
    }
    case "quarter": {
      if (past) return hit(len, period(addDays(today, -89), today, today, "last90d"));
      const q = quarterOf(today);
      const { from, to } = q === 1 ? quarterDays(yearOf(today) - 1, 4) : quarterDays(yearOf(today), q - 1);
      return hit(len, period(from, to, today), "lastquarter");
    }
    case "year": {
      if (past) return hit(len, period(addDays(today, -364), today, today, "last365d"));
      const y = yearOf(today) - 1;
      return hit(len, period(dayOf(y, 1, 1) as IsoDay, dayOf(y, 12, 31) as IsoDay, today));
    }
    default:
      return null;
  }
}

/** `ytd`, `mtd`, `qtd`, `wtd`: the unit of the "to date" abbreviations. */
const TO_DATE: Record<string, string> = { ytd: "year", qtd: "quarter", mtd: "month", wtd: "week" };

/** `this|current unit`, `year|month|… to date` and `ytd`/`mtd`/…: from the unit's first day to today. */
export function thisUnit(s: Sentence, i: number, today: IsoDay, the = false): Hit {
  const w = s.free(i) ?? "";
  const short = Object.hasOwn(TO_DATE, w) ? TO_DATE[w] : undefined;
  const toDate = short ? 1 : s.match(i, "year|quarter|month|week to date") === 3 ? 3 : 0;
  const unitWord = short ?? (toDate ? w : s.free(i + 1));
  if (toDate === 0 && s.match(i, the ? "this|current|the" : "this|current") < 0) return null;
  // "this month until now": what "this month" is anyway.
  const after = i + (toDate || 2);
  const len =
    (toDate || 2) + Math.max(0, s.match(after, "until|till now|today"), s.match(after, "up to now|today"));
  switch (UNITS[unitWord ?? ""]) {
    case "week":
      return hit(len, period(mondayOf(today), today, today, "thisweek"));
    case "month":
      return hit(len, period(startOfMonth(today), today, today, "thismonth"));
    case "quarter":
      return hit(len, period(quarterDays(yearOf(today), quarterOf(today)).from, today, today), "thisquarter");
    case "year":
      return hit(len, period(dayOf(yearOf(today), 1, 1) as IsoDay, today, today), "ytd");
    default:
      if (toDate === 0 && s.free(i + 1) === "weekend") {
        const saturday = lastWeekday(today, 6, false);
        return hit(2, period(saturday, addDays(saturday, 1), today));
      }
      return null;
  }
}

/**
 * `3 days ago`, `a week ago`, `two months ago`, `the day before yesterday`: that day, or that whole
 * calendar week, month or quarter, as "last week" is the whole one before this. Years back are this
 * time of that year (`a year ago`, `this time last year`: the last 7 days, a year earlier), since
 * nobody asking "how were we doing a year ago" means the whole of it.
 */
function ago(s: Sentence, i: number, today: IsoDay): Hit {
  const before = s.match(i, "day before yesterday");
  if (before > 0) {
    const d = addDays(today, -2);
    return hit(before, period(d, d, today));
  }
  const yearsBack = (len: number, n: number) => {
    const end = addMonths(today, -12 * n);
    return hit(len, period(addDays(end, -6), end, today));
  };
  const thisTime = Math.max(
    s.match(i, "this|same time last year"),
    s.match(i, "this|same time a|one year ago"),
  );
  if (thisTime > 0) return yearsBack(thisTime, 1);
  // "this week last year": the whole week 52 weeks back (its weekdays), month or quarter a year back.
  if (s.match(i, "this week|month|quarter last year") === 4) {
    const unit = UNITS[s.free(i + 1) ?? ""] as Unit;
    const yearBack = unit === "week" ? unitsBefore(today, "week", 52) : unitsBefore(today, "year", 1);
    const { from, to } = calendarUnit(unit, yearBack) as { from: IsoDay; to: IsoDay };
    return hit(4, period(from, to, today));
  }
  // "a couple of weeks ago": two.
  const couple = Math.max(0, s.match(i, "a? couple of"));
  const at = i + couple;
  const n = couple > 0 ? 2 : numberOf(s.free(i));
  const len = couple > 0 ? couple + 2 : 3;
  if (n === undefined || n < 1 || s.free(at + (couple > 0 ? 1 : 2)) !== "ago") return null;
  const unitWord = s.free(at + (couple > 0 ? 0 : 1)) ?? "";
  if (HOUR_WORDS.has(unitWord)) return { len, problem: hoursProblem(n) };
  const unit = UNITS[unitWord];
  if (!unit) return null;
  if (unit === "year") return yearsBack(len, n);
  // That day, or the whole calendar week (a fortnight ago: the week two weeks back), month or quarter.
  const back = calendarUnit(unit === "fortnight" ? "week" : unit, unitsBefore(today, unit, n));
  return back ? hit(len, period(back.from, back.to, today)) : null;
}

/** `the week before last`, `the month before last`: the whole unit before last one. */
function beforeLast(s: Sentence, i: number, today: IsoDay): Hit {
  const the = s.free(i) === "the" ? 1 : 0;
  const len = s.match(i, "the? week|month before last");
  if (len <= 0) return null;
  if (s.free(i + the) === "week") {
    const monday = addDays(mondayOf(today), -14);
    return hit(len, period(monday, addDays(monday, 6), today));
  }
  const from = startOfMonth(addMonths(today, -2));
  return hit(len, period(from, addDays(startOfMonth(addMonths(today, -1)), -1), today));
}

export const lastNUnits: PeriodRule = {
  name: "the last N days, weeks, months",
  examples: [
    { q: "findings for the last 30 days", reads: { range: "last30d" } },
    { q: "violations past 2 weeks", reads: { range: "last14d" } },
    { q: "last 3 months", reads: { range: "2026-08-19..2026-11-18" } },
    { q: "the last 2 full weeks", reads: { range: "2026-11-02..2026-11-15" } },
    { q: "the last 7 days not including today", reads: { range: "2026-11-11..2026-11-17" } },
  ],
  at: (s, i, ctx) => lastN(s, i, ctx.today),
};

export const lastOrPastUnit: PeriodRule = {
  name: "last or past week, month, quarter, year",
  examples: [
    { q: "how did we do last week", reads: { range: "lastweek" } },
    { q: "the past week", reads: { range: "last7d" } },
    { q: "last quarter please", reads: { range: "2026-07-01..2026-09-30" } },
    { q: "how was last year", reads: { range: "2025-01-01..2025-12-31" } },
  ],
  at: (s, i, ctx) => lastUnit(s, i, ctx.today),
};

export const thisOrToDate: PeriodRule = {
  name: "this unit, and to date",
  examples: [
    { q: "HOW ARE WE DOING THIS MONTH", reads: { range: "thismonth" } },
    { q: "year to date summary", reads: { range: "2026-01-01..2026-11-18" } },
    { q: "qtd violations", reads: { range: "2026-10-01..2026-11-18" } },
  ],
  at: (s, i, ctx) => thisUnit(s, i, ctx.today),
};

export const unitsAgo: PeriodRule = {
  name: "N units ago",
  examples: [
    { q: "findings 3 days ago", reads: { range: "2026-11-15" } },
    { q: "violations two weeks ago", reads: { range: "2026-11-02..2026-11-08" } },
    { q: "the day before yesterday", reads: { range: "2026-11-16" } },
  ],
  at: (s, i, ctx) => ago(s, i, ctx.today),
};

export const unitBeforeLast: PeriodRule = {
  name: "the week or month before last",
  examples: [
    { q: "the week before last", reads: { range: "2026-11-02..2026-11-08" } },
    { q: "violations the month before last", reads: { range: "2026-09-01..2026-09-30" } },
  ],
  at: (s, i, ctx) => beforeLast(s, i, ctx.today),
};
