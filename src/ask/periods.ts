import type { IsoDay } from "../analytics/types.ts";
import { daysInclusive, isValidIsoDay } from "../insights/days.ts";
import { formatRangeLabel } from "../insights/labels.ts";
import { MAX_LAST_DAYS, MAX_RANGE_DAYS, MIN_RANGE_DAY, matchRangeSpec } from "../insights/range-grammar.ts";
import {
  addDays,
  addMonths,
  calendarUnit,
  dayOf,
  endOfMonth,
  isoWeekday,
  lastWeekday,
  latestDate,
  latestMonth,
  latestQuarter,
  mondayOf,
  monthOf,
  quarterDays,
  quarterOf,
  startOfMonth,
  type Unit,
  unitsBefore,
  yearOf,
} from "./calendar.ts";
import { TIME_BOUNDS, timeAt } from "./rules/times.ts";
import { Sentence } from "./sentence.ts";
import type { DayRange } from "./types.ts";
import { MONTHS, numberOf, WEEKDAYS } from "./vocabulary.ts";

/**
 * Periods said in words ("last week", "in October", "since Nov 1", "Q3", "the last 30 days"),
 * resolved to days against today in the person's zone. Each reading keeps the slash command's
 * form when there is one (`lastweek`, `last30d`), so the request is the one the command builds.
 */

/**
 * A period found at a position: how many words it took, and the days (or why they cannot be asked
 * for). `rolling` is the slash command's rolling form of a period whose days it names by date (a
 * one-off question keeps the days; a schedule repeats the form: `yesterday`, `lastquarter`, `ytd`).
 */
export type PeriodHit = { len: number; range: DayRange; rolling?: string } | { len: number; problem: string };

type Hit = PeriodHit | null;

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
const HOUR_WORDS = new Set(["hour", "hours", "hr", "hrs", "minute", "minutes", "min", "mins"]);

/** What to say to "the last 24 hours": the data is daily, and which days come closest. */
const hoursProblem = (hours: number) =>
  `The numbers are daily, so I can't look at hours: try “today”, “yesterday” or “the last ${Math.max(2, Math.ceil(hours / 24) + 1)} days”.`;

const ORDINAL_QUARTERS: Record<string, number> = {
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

const monthNumber = (w: string | undefined) => (w ? MONTHS.indexOf(w as never) + 1 : 0);
const weekdayNumber = (w: string | undefined) => (w ? WEEKDAYS.indexOf(w as never) + 1 : 0);

/** A day of the month as written: `1`, `1st`, `22nd`. */
function dayNumber(w: string | undefined): number {
  const m = /^(\d{1,2})(st|nd|rd|th)?$/.exec(w ?? "");
  const n = m ? Number(m[1]) : 0;
  return n >= 1 && n <= 31 ? n : 0;
}

function yearNumber(w: string | undefined): number {
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

const hit = (len: number, r: { range: DayRange } | { problem: string }, rolling?: string): PeriodHit =>
  "range" in r && rolling ? { len, ...r, rolling } : { len, ...r };

/**
 * The days of one of the slash command's rolling forms today, or undefined for another form.
 *
 * @example rollingRange("lastquarter", "2026-11-18") // { spec: "lastquarter", from: "2026-07-01", to: "2026-09-30" }
 */
export function rollingRange(spec: string, today: IsoDay): DayRange | undefined {
  const p = spec === "yesterday" || spec === "ytd" ? null : commandWord(new Sentence([spec]), 0, today);
  if (p && "range" in p) return { ...p.range, spec };
  if (spec === "yesterday") return { spec, from: addDays(today, -1), to: addDays(today, -1) };
  if (spec === "ytd") return { spec, from: dayOf(yearOf(today), 1, 1) as IsoDay, to: today };
  return undefined;
}

/** A date said in words: ISO, `October 1st [2025]`, `1 Oct [2025]`, `the 1st of October`. */
interface SaidDate {
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

function dayFromSaid(d: SaidDate, today: IsoDay): IsoDay | undefined {
  return d.year ? dayOf(d.year, d.month, d.day) : latestDate(today, d.month, d.day);
}

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
function lastUnit(s: Sentence, i: number, today: IsoDay): Hit {
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
function thisUnit(s: Sentence, i: number, today: IsoDay, the = false): Hit {
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

/** `Q3`, `Q3 2025`, `2025 Q3`, `the third quarter [of 2025]`. */
function quarter(s: Sentence, i: number, today: IsoDay): Hit {
  const w = s.free(i);
  let q = 0;
  let len = 0;
  let year = 0;
  const short = /^q([1-4])$/.exec(w ?? "");
  if (short) {
    q = Number(short[1]);
    len = 1;
    year = yearNumber(s.free(i + 1));
    if (year) len++;
  } else if (yearNumber(w) && /^q[1-4]$/.test(s.free(i + 1) ?? "")) {
    year = yearNumber(w);
    q = Number((s.free(i + 1) as string)[1]);
    len = 2;
  } else {
    const ordinal = ORDINAL_QUARTERS[w ?? ""];
    if (!ordinal || s.free(i + 1) !== "quarter") return null;
    q = ordinal;
    len = 2;
    const of = s.match(i + 2, "of #");
    if (of === 2 && yearNumber(s.free(i + 3))) {
      year = yearNumber(s.free(i + 3));
      len += 2;
    }
  }
  // "Q4 last year": that quarter of the year before this one.
  if (!year && s.match(i + len, "last year") === 2) {
    year = yearOf(today) - 1;
    len += 2;
  }
  const { from, to } = year ? quarterDays(year, q) : latestQuarter(today, q);
  return hit(len, period(from, to, today));
}

const HALVES: Record<string, 1 | 2> = { first: 1, "1st": 1, second: 2, "2nd": 2, last: 2 };

/**
 * Halves: `H1`, `H2 2025` (of a year: the latest that has begun), `the first half of October`,
 * `second half of the year`, `first half of 2025`.
 */
function half(s: Sentence, i: number, today: IsoDay): Hit {
  const short = /^h([12])$/.exec(s.free(i) ?? "");
  const which = short
    ? (Number(short[1]) as 1 | 2)
    : Object.hasOwn(HALVES, s.free(i) ?? "")
      ? HALVES[s.free(i) as string]
      : undefined;
  if (!which) return null;
  const ofYear = (len: number, year: number) => {
    const y = year || (which === 2 && monthOf(today) < 7 ? yearOf(today) - 1 : yearOf(today));
    const from = dayOf(y, which === 1 ? 1 : 7, 1) as IsoDay;
    return hit(len, period(from, dayOf(y, which === 1 ? 6 : 12, which === 1 ? 30 : 31) as IsoDay, today));
  };
  if (short) {
    const year = yearNumber(s.free(i + 1));
    return ofYear(year ? 2 : 1, year);
  }
  if (s.free(i + 1) !== "half") return null;
  const of = s.match(i + 2, "of the|this?");
  if (of < 1) return null;
  const at = i + 2 + of;
  if (s.match(at, "year") === 1) return ofYear(at + 1 - i, 0);
  const year = yearNumber(s.free(at));
  if (year) return ofYear(at + 1 - i, year);
  // "of the month": the one we are in.
  const current = s.match(at, "month") === 1;
  const m = current ? monthOf(today) : monthNumber(s.free(at));
  if (m === 0) return null;
  const monthYear = current ? 0 : yearNumber(s.free(at + 1));
  const { from, to } = current
    ? { from: startOfMonth(today), to: endOfMonth(yearOf(today), m) }
    : monthYear
      ? { from: dayOf(monthYear, m, 1) as IsoDay, to: endOfMonth(monthYear, m) }
      : latestMonth(today, m);
  const len = at + 1 + (monthYear ? 1 : 0) - i;
  return which === 1
    ? hit(len, period(from, addDays(from, 14), today))
    : hit(len, period(addDays(from, 15), to, today));
}

/**
 * A month said by name at `at`: `October 2025` and `October last year` that year's, else the latest
 * October that has begun. Its days, and how many words it took.
 */
function namedMonth(
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

/** `October`, `October 2025`, `October last year`, `the October month`: the whole month. */
function month(s: Sentence, i: number, today: IsoDay, cued: boolean): Hit {
  const named = namedMonth(s, i, today);
  if (!named) return null;
  // "may" and "march" are also verbs: a month only after a word that asks for a time, or with a year.
  const m = monthOf(named.from);
  if ((m === 5 || m === 3) && !cued && named.len === 1) return null;
  // "the October month": the word says what October is.
  const len = named.len === 1 && s.free(i + 1) === "month" ? 2 : named.len;
  return hit(len, period(named.from, named.to, today));
}

/** Where in a month: `early` the 1st–10th, `mid` the 11th–20th, `late` the 21st to its end. */
const MONTH_PART: Record<string, [number, number]> = {
  early: [1, 10],
  beginning: [1, 10],
  mid: [11, 20],
  middle: [11, 20],
  late: [21, 31],
  end: [21, 31],
};

/** `early November`, `mid-October`, `late October 2025`, `the end of September`: a third of the month. */
function partOfMonth(s: Sentence, i: number, today: IsoDay): Hit {
  const part = MONTH_PART[s.free(i) ?? ""];
  if (!part) return null;
  const of = s.match(i + 1, "of|-?");
  const m = namedMonth(s, i + 1 + of, today);
  if (!m) return null;
  const from = addDays(m.from, part[0] - 1);
  const to = part[1] === 31 ? m.to : addDays(m.from, part[1] - 1);
  return hit(1 + of + m.len, period(from, to, today));
}

/**
 * `the first week of November` (its 1st–7th, and so on to the fourth), `the last week of October`
 * (its last 7 days), `the week of Nov 9` (Monday to Sunday around it), `week 45` (the ISO week of
 * this year, or last year's when it is still to come).
 */
function weekOf(s: Sentence, i: number, today: IsoDay): Hit {
  const nth = ORDINAL_QUARTERS[s.free(i) ?? ""];
  if (nth !== undefined && s.match(i + 1, "week of|in") === 2) {
    const m = namedMonth(s, i + 3, today);
    if (!m) return null;
    const from = nth === 0 ? addDays(m.to, -6) : addDays(m.from, 7 * (nth - 1));
    return hit(3 + m.len, period(from, addDays(from, 6), today));
  }
  if (s.free(i) !== "week") return null;
  // "the week ending Friday", "the week to Nov 13": the 7 days ending that day.
  if (s.match(i + 1, "ending|to") === 1) {
    const wd = weekdayNumber(s.free(i + 2));
    const date = wd ? null : dateAt(s, i + 2);
    const end = wd ? lastWeekday(today, wd, false) : date ? dayFromSaid(date, today) : undefined;
    const len = 2 + (wd ? 1 : (date?.len ?? 0));
    if (len === 2) return null;
    if (!end) return { len, problem: "That date does not exist." };
    return hit(len, period(addDays(end, -6), end, today));
  }
  if (s.free(i + 1) === "of") {
    const date = dateAt(s, i + 2);
    if (!date) return null;
    const day = dayFromSaid(date, today);
    if (!day) return { len: 2 + date.len, problem: "That date does not exist." };
    const monday = mondayOf(day);
    return hit(2 + date.len, period(monday, addDays(monday, 6), today));
  }
  const n = /^\d{1,2}$/.test(s.free(i + 1) ?? "") ? Number(s.free(i + 1)) : 0;
  if (n < 1) return null;
  const year = yearNumber(s.free(i + 2));
  // ISO weeks: week 1 is the one with January 4th in it; a year has 52 or 53.
  const mondayOfWeek = (y: number) => addDays(mondayOf(dayOf(y, 1, 4) as IsoDay), 7 * (n - 1));
  // The ISO year today is in (Dec 30 may be in next year's week 1), or the one before while week n is to come.
  const isoYear = yearOf(addDays(mondayOf(today), 3));
  const y = year || (mondayOfWeek(isoYear) <= today ? isoYear : isoYear - 1);
  const monday = mondayOfWeek(y);
  const len = year ? 3 : 2;
  if (yearOf(addDays(monday, 3)) !== y) return { len, problem: `${y} has no week ${n}.` };
  return hit(len, period(monday, addDays(monday, 6), today));
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

/** `from D1 to D2`, `between D1 and D2`, `D1 - D2`, `Oct 1-15`, `from August to October`. */
function between(s: Sentence, i: number, today: IsoDay): Hit {
  const lead = Math.max(0, s.match(i, "from|between"));
  const at = i + lead;
  const first = dateAt(s, at);
  const firstMonth = first ? 0 : monthNumber(s.free(at));
  if (!first && firstMonth === 0) return null;
  const afterFirst = at + (first ? first.len : 1);
  // "and" joins only after "between": "October and September" alone is two things said.
  const joint = s.match(afterFirst, s.free(i) === "between" ? "and" : "to|until|till|through|thru|-");
  if (joint < 0) return null;
  const second = afterFirst + joint;
  if (first && s.match(second, "today|now") === 1) {
    const from = dayFromSaid(first, today);
    if (!from) return { len: second + 1 - i, problem: "That start date does not exist." };
    return hit(second + 1 - i, period(from, today, today));
  }
  if (first) {
    const end = dateAt(s, second);
    // "Oct 1 - 15": the second day in the first one's month.
    const bareDay = end ? 0 : dayNumber(s.free(second));
    if (!end && bareDay === 0) return null;
    const endSaid = end ?? { len: 1, month: first.month, day: bareDay, year: first.year };
    const to = dayFromSaid(endSaid, today);
    if (!to) return { len: second + endSaid.len - i, problem: "That end date does not exist." };
    const fromDay = first.year
      ? dayOf(first.year, first.month, first.day)
      : (dayOf(yearOf(to), first.month, first.day) ?? "");
    // "from Dec 15 to Jan 15" runs over a year's end; a start with its year, or in the end's own
    // month ("Nov 15 - 1"), after the end is a period typed backwards, refused by `period`.
    const wraps = !first.year && first.month !== endSaid.month;
    const from = fromDay && fromDay > to && wraps ? dayOf(yearOf(to) - 1, first.month, first.day) : fromDay;
    if (!from) return { len: second + endSaid.len - i, problem: "That start date does not exist." };
    return hit(second + endSaid.len - i, period(from, to, today));
  }
  const lastMonth = monthNumber(s.free(second));
  if (lastMonth === 0) return null;
  const end = latestMonth(today, lastMonth);
  const startYear = firstMonth <= lastMonth ? yearOf(end.from) : yearOf(end.from) - 1;
  return hit(second + 1 - i, period(dayOf(startYear, firstMonth, 1) as IsoDay, end.to, today));
}

/**
 * Weekdays as a span: `from Monday to Friday`, `between Tuesday and Thursday`, `Mon - Wed last week`,
 * `from Monday until today`. Without a week said, the latest such span that has ended by today (on a
 * Wednesday, "Monday to Friday" is last week's); with one, that week's days (this week's end at today).
 * "Friday to Monday" runs over the weekend; one weekday to itself is a week and a day.
 */
function weekdaySpan(s: Sentence, i: number, today: IsoDay): Hit {
  let at = i + Math.max(0, s.match(i, "from|between"));
  const strict = s.free(at) === "last" ? 1 : 0;
  const first = weekdayNumber(s.free(at + strict));
  if (first === 0) return null;
  at += strict + 1;
  const joint = s.match(at, s.free(i) === "between" ? "and" : "to|until|till|through|thru|-");
  if (joint < 0) return null;
  at += joint;
  if (s.match(at, "today|now") === 1)
    return hit(at + 1 - i, period(lastWeekday(today, first, strict === 1), today, today));
  const last = weekdayNumber(s.free(at));
  if (last === 0) return null;
  at += 1;
  const after = (last - first + 7) % 7 || 7;
  const week = s.match(at, "of? the? last|previous|this week");
  if (week > 0) {
    const thisWeek = s.free(at + week - 2) === "this";
    const from = addDays(mondayOf(today), first - 1 - (thisWeek ? 0 : 7));
    return hit(at + week - i, period(from, addDays(from, after), today));
  }
  const to = lastWeekday(today, last, false);
  return hit(at - i, period(addDays(to, -after), to, today));
}

/** `since Monday`, `since last Monday`, `since Nov 1`, `since October`, `since last week`, `since the start of the month`. */
function since(s: Sentence, i: number, today: IsoDay): Hit {
  // "since X", and "from the start of X" (a start with no end said is "since").
  if (s.free(i) !== "since" && !(s.free(i) === "from" && s.match(i + 1, "the? start|beginning of") > 0))
    return null;
  const at = i + 1;
  // A start said relative to today ("since Monday", "since the 1st", "since the start of the month") is
  // the rolling form a schedule repeats; a date is not.
  const upTo = (len: number, from: IsoDay | undefined, rolling?: string) =>
    from ? hit(len, period(from, today, today), rolling) : { len, problem: "That date does not exist." };
  const strict = s.free(at) === "last" ? 1 : 0;
  const wd = weekdayNumber(s.free(at + strict));
  if (wd > 0) {
    const from = lastWeekday(today, wd, strict === 1);
    return upTo(2 + strict, from, from === mondayOf(today) && wd === 1 ? "thisweek" : undefined);
  }
  const date = dateAt(s, at);
  if (date) return upTo(1 + date.len, dayFromSaid(date, today));
  // "since the 1st": a day with no month is this month's.
  const first = s.match(at, "the? 1st|first");
  if (first > 0 && monthNumber(s.free(at + first)) === 0 && s.free(at + first) !== "of")
    return upTo(1 + first, startOfMonth(today), "thismonth");
  const m = monthNumber(s.free(at));
  const mYear = m > 0 ? yearNumber(s.free(at + 1)) : 0;
  if (mYear) return upTo(3, dayOf(mYear, m, 1));
  if (m > 0) return upTo(2, latestMonth(today, m).from);
  if (s.free(at) === "yesterday") return upTo(2, addDays(today, -1));
  const q = quarter(s, at, today);
  if (q && "range" in q) return upTo(1 + q.len, q.range.from);
  const last = lastUnit(s, at, today);
  if (last && "range" in last) return upTo(1 + last.len, last.range.from);
  // "since the beginning of Q4", "since the start of October", "of last month", "of the month before
  // last": the first day of the period said there (before "of the month": it may go on, "before last").
  const startOf = s.match(at, "the? start|beginning|begin of");
  if (startOf > 0) {
    // "the month" alone is the one we are in, as "this month" is.
    const inner = periodAt(s, at + startOf, today) ?? thisUnit(s, at + startOf, today, true);
    if (inner && "range" in inner) {
      const spec = inner.range.spec;
      const rolling = "rolling" in inner ? inner.rolling : /^this(week|month)$/.test(spec) ? spec : undefined;
      return upTo(1 + startOf + inner.len, inner.range.from, rolling);
    }
    const year = yearNumber(s.free(at + startOf));
    if (year) return upTo(2 + startOf, dayOf(year, 1, 1));
  }
  return null;
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

/**
 * `on the 3rd`, `Monday the 9th`: a day said by its number alone, this month's (last month's while it
 * is still to come); with a weekday, that weekday's it must be.
 */
function dayOfMonth(s: Sentence, i: number, today: IsoDay): Hit {
  const wd = weekdayNumber(s.free(i));
  const at = i + (wd ? 2 : 0);
  // Only an ordinal after "the", after a weekday or a word that asks for a day ("on the 3rd"): "the 3rd
  // biggest" is a rank, and a bare number may be a count.
  if (
    wd ? s.free(i + 1) !== "the" : s.words[i - 1] !== "the" || !["on", "for"].includes(s.words[i - 2] ?? "")
  )
    return null;
  const w = s.free(at) ?? "";
  if (!/^\d{1,2}(st|nd|rd|th)$/.test(w) || s.free(at + 1) === "of" || monthNumber(s.free(at + 1)) > 0)
    return null;
  const d = dayNumber(w);
  const len = at + 1 - i;
  // The latest month that has the day by today (the 31st of the latest month with one).
  let day: IsoDay | undefined;
  for (let back = 0; back < 12 && !day; back++) {
    const month = addMonths(startOfMonth(today), -back);
    const candidate = dayOf(yearOf(month), monthOf(month), d);
    if (candidate && candidate <= today) day = candidate;
  }
  if (!day) return { len, problem: "That date does not exist." };
  if (wd && isoWeekday(day) !== wd) {
    const name = (n: number) => `${WEEKDAYS[n - 1]?.[0]?.toUpperCase()}${WEEKDAYS[n - 1]?.slice(1)}`;
    return {
      len,
      problem: `${formatRangeLabel(day, day)} is a ${name(isoWeekday(day))}, not a ${name(wd)}.`,
    };
  }
  return hit(len, period(day, day, today));
}

/** `on Monday`, `last Tuesday`: that one day. */
function weekday(s: Sentence, i: number, today: IsoDay): Hit {
  const strict = s.free(i) === "last" ? 1 : 0;
  const wd = weekdayNumber(s.free(i + strict));
  if (wd === 0) return null;
  const day = lastWeekday(today, wd, strict === 1);
  return hit(1 + strict, period(day, day, today));
}

/** The slash command's own words inside a question (`last30d`, `lastweek`, `2026-11-01..2026-11-15`), and `30d`. */
function commandWord(s: Sentence, i: number, today: IsoDay): Hit {
  const w = s.free(i);
  if (w === undefined) return null;
  const word = /^\d{1,3}d$/.test(w) ? `last${w}` : w;
  const spec = matchRangeSpec(word);
  if (!spec || spec.kind === "day") return null;
  switch (spec.kind) {
    case "last": {
      if (spec.days < 1 || spec.days > MAX_LAST_DAYS)
        return { len: 1, problem: `${w} is not a range I know.` };
      return hit(1, period(addDays(today, 1 - spec.days), today, today, `last${spec.days}d`));
    }
    case "between":
      for (const day of [spec.from, spec.to])
        if (!isValidIsoDay(day)) return { len: 1, problem: `${day} is not a real calendar date.` };
      return hit(1, period(spec.from, spec.to, today));
    case "thisweek":
      return hit(1, period(mondayOf(today), today, today, "thisweek"));
    case "lastweek":
      return hit(1, period(addDays(mondayOf(today), -7), addDays(mondayOf(today), -1), today, "lastweek"));
    case "thismonth":
      return hit(1, period(startOfMonth(today), today, today, "thismonth"));
    case "lastmonth": {
      const end = addDays(startOfMonth(today), -1);
      return hit(1, period(startOfMonth(end), end, today, "lastmonth"));
    }
    case "thisquarter":
      return hit(1, period(quarterDays(yearOf(today), quarterOf(today)).from, today, today, "thisquarter"));
    case "lastquarter": {
      const q = quarterOf(today);
      const { from, to } = q === 1 ? quarterDays(yearOf(today) - 1, 4) : quarterDays(yearOf(today), q - 1);
      return hit(1, period(from, to, today, "lastquarter"));
    }
    // Read with the words of their kind: "yesterday" alone, `ytd` with the other "to date" ones.
    case "yesterday":
    case "ytd":
      return null;
  }
}

/** Periods that cannot be asked for, said plainly so the answer can say why. */
function impossible(s: Sentence, i: number): Hit {
  const next = s.match(i, "next|tomorrow|upcoming");
  if (next > 0) {
    // "next week", "the next 7 days": the unit (and its count) go with it.
    const counted = numberOf(s.free(i + 1)) !== undefined && UNITS[s.free(i + 2) ?? ""] ? 1 : 0;
    const unit = UNITS[s.free(i + 1 + counted) ?? ""] || s.free(i + 1) === "weekend" ? 1 + counted : 0;
    return {
      len: 1 + (s.free(i) === "tomorrow" ? 0 : unit),
      problem: "I only know what has already happened.",
    };
  }
  const ever = Math.max(s.match(i, "all time"), s.match(i, "ever"), s.match(i, "forever"));
  if (ever > 0) return { len: ever, problem: `I can look at up to ${MAX_RANGE_DAYS} days at a time.` };
  return null;
}

const PART_OF_DAY_PROBLEM =
  "The numbers are daily, so I can't look at part of a day: try “today”, “yesterday” or “the last 2 days”.";

/** "this morning", "tonight", "yesterday evening", "since 9am", "after noon": parts of a day. */
function partOfDay(s: Sentence, i: number): Hit {
  if (s.free(i) === "tonight") return { len: 1, problem: PART_OF_DAY_PROBLEM };
  const part = s.match(i, "this|last|today|yesterday morning|afternoon|evening|night");
  if (part === 2) return { len: 2, problem: PART_OF_DAY_PROBLEM };
  if (!TIME_BOUNDS.has(s.free(i) ?? "")) return null;
  const t = timeAt(s, i + 1);
  // A bare number after "since" or "from" is a day ("since 3"), not a time: only `9am`, `9:30`, `noon`.
  if (!t || (!/[a-z:]/.test(s.words[i + 1] ?? "") && t.len === 1)) return null;
  // "since 9am today": the day said with the time is part of it.
  const day = s.match(i + 1 + t.len, "today|yesterday") === 1 ? 1 : 0;
  return { len: 1 + t.len + day, problem: PART_OF_DAY_PROBLEM };
}

/** The period the words at `i` say, if any: the forms above, in order, longest first. */
function bareAt(s: Sentence, i: number, today: IsoDay, cued: boolean, spans = true): Hit {
  const part = partOfDay(s, i);
  if (part) return part;
  if (s.free(i) === "today") return hit(1, period(today, today, today, "last1d"));
  if (s.free(i) === "yesterday") {
    const d = addDays(today, -1);
    return hit(1, period(d, d, today), "yesterday");
  }
  for (const rule of [
    commandWord,
    ago,
    thisUnit,
    lastN,
    quarter,
    half,
    since,
    between,
    weekdaySpan,
    partOfMonth,
    weekOf,
    dayOfMonth,
    beforeLast,
    lastUnit,
    impossible,
  ]) {
    if ((rule === between || rule === weekdaySpan) && !spans) continue;
    const found = rule(s, i, today);
    if (found) return found;
  }
  const date = dateAt(s, i);
  if (date) {
    const day = dayFromSaid(date, today);
    return day
      ? hit(date.len, period(day, day, today))
      : { len: date.len, problem: "That date does not exist." };
  }
  return month(s, i, today, cued) ?? weekday(s, i, today);
}

/** Words that say "a time follows": they belong to the period and make "May" a month. */
const CUES = new Set(["in", "for", "during", "over", "within", "throughout", "of", "on", "from"]);

/**
 * The period said at `i`, taking a leading `in`/`for`/`during`/`over`/`on` (and `the`) with it.
 * `spans: false` leaves out the `X to Y` spans, for where the "to" may join two periods instead.
 *
 * @example periodAt(new Sentence(["in", "october"]), 0, "2026-11-18") // { len: 2, range: { spec: "2026-10-01..2026-10-31", … } }
 */
export function periodAt(s: Sentence, i: number, today: IsoDay, spans = true): PeriodHit | null {
  const bare = bareAt(s, i, today, i > 0 && CUES.has(s.words[i - 1] ?? ""), spans);
  if (bare) return bare;
  const w = s.free(i);
  if (w === "the") {
    const inner = bareAt(s, i + 1, today, false, spans);
    return inner ? { ...inner, len: inner.len + 1 } : null;
  }
  if (w === undefined || !CUES.has(w)) return null;
  const the = s.free(i + 1) === "the" ? 1 : 0;
  const inner = bareAt(s, i + 1 + the, today, true, spans);
  if (inner) return { ...inner, len: inner.len + 1 + the };
  // "in 2025": a year alone, after a word that can only ask for a time ("over 2000" is a count).
  const year = the === 0 && s.match(i, "in|during|throughout") === 1 ? yearNumber(s.free(i + 1)) : 0;
  if (year) return hit(2, period(dayOf(year, 1, 1) as IsoDay, dayOf(year, 12, 31) as IsoDay, today));
  // "for the year", "in the month", "over the weekend": the one we are in, or the weekend just gone
  // (when no longer period starts there).
  if (the === 1 && s.match(i + 2, "week|month|quarter|year|weekend") === 1) {
    const current = thisUnit(s, i + 1, today, true);
    if (current) return { ...current, len: current.len + 1 };
  }
  return null;
}

/** A period as the answer shows it: `Oct 1 – Oct 31, 2026`. */
export const periodLabel = (r: Pick<DayRange, "from" | "to">) => formatRangeLabel(r.from, r.to);

/** Days the period covers. */
export const periodDays = (r: Pick<DayRange, "from" | "to">) => daysInclusive(r.from, r.to);

export { monthOf };
