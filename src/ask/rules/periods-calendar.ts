import type { IsoDay } from "../../analytics/types.ts";
import { isValidIsoDay } from "../../insights/days.ts";
import { formatRangeLabel } from "../../insights/labels.ts";
import { MAX_LAST_DAYS, matchRangeSpec } from "../../insights/range-grammar.ts";
import {
  addDays,
  addMonths,
  dayOf,
  endOfMonth,
  isoWeekday,
  lastWeekday,
  latestMonth,
  latestQuarter,
  mondayOf,
  monthOf,
  quarterDays,
  quarterOf,
  startOfMonth,
  yearOf,
} from "../calendar.ts";
import {
  dateAt,
  dayFromSaid,
  dayNumber,
  type Hit,
  hit,
  monthNumber,
  namedMonth,
  ORDINAL_QUARTERS,
  type PeriodHit,
  period,
  weekdayNumber,
  yearNumber,
} from "../period-core.ts";
import { Sentence } from "../sentence.ts";
import type { DayRange } from "../types.ts";
import { WEEKDAYS } from "../vocabulary.ts";
import type { Rule } from "./rule.ts";

/**
 * Periods said by their place in the calendar: today and yesterday, quarters and halves, months and
 * their parts, weeks of a month, days by their number or their weekday, dates, and the slash
 * command's own forms.
 */

type PeriodRule = Rule<PeriodHit>;

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

/** `Q3`, `Q3 2025`, `2025 Q3`, `the third quarter [of 2025]`. */
export function quarter(s: Sentence, i: number, today: IsoDay): Hit {
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

export const todayOrYesterday: PeriodRule = {
  name: "today, yesterday",
  examples: [
    { q: "what happened today", reads: { range: "last1d" } },
    { q: "give me a summary for yesterday", reads: { range: "2026-11-17" } },
  ],
  at(s, i, ctx) {
    const today = ctx.today;
    if (s.free(i) === "today") return hit(1, period(today, today, today, "last1d"));
    if (s.free(i) !== "yesterday") return null;
    const d = addDays(today, -1);
    return hit(1, period(d, d, today), "yesterday");
  },
};

export const commandForm: PeriodRule = {
  name: "the slash command's forms",
  examples: [
    { q: "violations last30d", reads: { range: "last30d" } },
    { q: "findings 2026-11-01..2026-11-15", reads: { range: "2026-11-01..2026-11-15" } },
  ],
  at: (s, i, ctx) => commandWord(s, i, ctx.today),
};

export const quarterSaid: PeriodRule = {
  name: "a quarter",
  examples: [
    { q: "report for Q3", reads: { range: "2026-07-01..2026-09-30" } },
    { q: "findings in the second quarter of 2025", reads: { range: "2025-04-01..2025-06-30" } },
  ],
  at: (s, i, ctx) => quarter(s, i, ctx.today),
};

export const halfSaid: PeriodRule = {
  name: "a half of a year or month",
  examples: [
    { q: "violations in H1", reads: { range: "2026-01-01..2026-06-30" } },
    { q: "the first half of October", reads: { range: "2026-10-01..2026-10-15" } },
  ],
  at: (s, i, ctx) => half(s, i, ctx.today),
};

export const partOfAMonth: PeriodRule = {
  name: "early, mid or late in a month",
  examples: [{ q: "findings in late October", reads: { range: "2026-10-21..2026-10-31" } }],
  at: (s, i, ctx) => partOfMonth(s, i, ctx.today),
};

export const weekOfAMonth: PeriodRule = {
  name: "a week of a month, of a day, or by its number",
  examples: [
    { q: "the first week of November", reads: { range: "2026-11-01..2026-11-07" } },
    { q: "violations in week 45", reads: { range: "2026-11-02..2026-11-08" } },
  ],
  at: (s, i, ctx) => weekOf(s, i, ctx.today),
};

export const dayByNumber: PeriodRule = {
  name: "a day by its number",
  examples: [{ q: "how many violations on the 3rd", reads: { range: "2026-11-03" } }],
  at: (s, i, ctx) => dayOfMonth(s, i, ctx.today),
};

export const dateSaid: PeriodRule = {
  name: "a date",
  examples: [
    { q: "findings on Nov 3", reads: { range: "2026-11-03" } },
    { q: "violations on the 1st of October", reads: { range: "2026-10-01" } },
  ],
  at(s, i, ctx) {
    const date = dateAt(s, i);
    if (!date) return null;
    const day = dayFromSaid(date, ctx.today);
    return day
      ? hit(date.len, period(day, day, ctx.today))
      : { len: date.len, problem: "That date does not exist." };
  },
};

/** Words that say "a time follows": they belong to the period and make "May" a month. */
export const CUES: ReadonlySet<string> = new Set([
  "in",
  "for",
  "during",
  "over",
  "within",
  "throughout",
  "of",
  "on",
  "from",
]);

export const monthSaid: PeriodRule = {
  name: "a month",
  examples: [
    { q: "how did we do in October", reads: { range: "2026-10-01..2026-10-31" } },
    { q: "show me december", reads: { range: "2025-12-01..2025-12-31" } },
    { q: "findings in may", reads: { range: "2026-05-01..2026-05-31" } },
  ],
  at(s, i, ctx) {
    // "may" and "march" are months after a word that asks for a time ("in May", "in the May …").
    const before = s.words[i - 1] ?? "";
    const cued = CUES.has(before) || (before === "the" && CUES.has(s.words[i - 2] ?? ""));
    return month(s, i, ctx.today, cued);
  },
};

export const weekdaySaid: PeriodRule = {
  name: "a weekday",
  examples: [
    { q: "stats for monday", reads: { range: "2026-11-16" } },
    { q: "violations last tuesday", reads: { range: "2026-11-17" } },
  ],
  at: (s, i, ctx) => weekday(s, i, ctx.today),
};
