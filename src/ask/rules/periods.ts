import type { IsoDay } from "../../analytics/types.ts";
import { addDays, dayOf, lastWeekday, latestMonth, mondayOf, startOfMonth, yearOf } from "../calendar.ts";
import {
  dateAt,
  dayFromSaid,
  dayNumber,
  type Hit,
  hit,
  monthNumber,
  type PeriodHit,
  period,
  weekdayNumber,
  yearNumber,
} from "../period-core.ts";
import type { Sentence } from "../sentence.ts";
import type { Pass } from "./found.ts";
import {
  CUES,
  commandForm,
  dateSaid,
  dayByNumber,
  halfSaid,
  monthSaid,
  partOfAMonth,
  quarter,
  quarterSaid,
  todayOrYesterday,
  weekdaySaid,
  weekOfAMonth,
} from "./periods-calendar.ts";
import { notYetOrTooLong, partOfADay } from "./periods-refused.ts";
import {
  lastNUnits,
  lastOrPastUnit,
  lastUnit,
  thisOrToDate,
  thisUnit,
  unitBeforeLast,
  unitsAgo,
} from "./periods-relative.ts";
import { type Example, type Rule, type RuleContext, scan } from "./rule.ts";

/**
 * Periods said in words ("last week", "in October", "since Nov 1", "Q3", "the last 30 days"),
 * resolved to days against today in the person's zone. One table of rules, tried in its order at
 * each word (the first that reads a period there decides); the rules live by kind: relative to today
 * (periods-relative.ts), places in the calendar (periods-calendar.ts), spans and starts (here), and
 * periods that cannot be asked for (periods-refused.ts).
 */

/** A rule for a period; a `span` ("from X to Y") is left out where a "to" may join two periods instead. */
type PeriodRule = Rule<PeriodHit> & { span?: true };

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
function since(s: Sentence, i: number, ctx: RuleContext): Hit {
  const today = ctx.today;
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
    const inner = periodAt(s, at + startOf, ctx) ?? thisUnit(s, at + startOf, today, true);
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

const sinceStart: PeriodRule = {
  name: "since a day, a month, a start",
  examples: [
    { q: "stats since monday", reads: { range: "2026-11-16..2026-11-18" } },
    { q: "how are we doing since Nov 1", reads: { range: "2026-11-01..2026-11-18" } },
    { q: "since the start of the month", reads: { range: "2026-11-01..2026-11-18" } },
    { q: "since the beginning of Q4", reads: { range: "2026-10-01..2026-11-18" } },
  ],
  at: (s, i, ctx) => since(s, i, ctx),
};

const fromTo: PeriodRule = {
  name: "from one day or month to another",
  span: true,
  examples: [
    { q: "from Oct 1 to Oct 15", reads: { range: "2026-10-01..2026-10-15" } },
    { q: "Oct 1-15 violations", reads: { range: "2026-10-01..2026-10-15" } },
    { q: "findings from august to october", reads: { range: "2026-08-01..2026-10-31" } },
  ],
  at: (s, i, ctx) => between(s, i, ctx.today),
};

const weekdayToWeekday: PeriodRule = {
  name: "from one weekday to another",
  span: true,
  examples: [
    { q: "findings from monday to friday", reads: { range: "2026-11-09..2026-11-13" } },
    { q: "violations mon - wed last week", reads: { range: "2026-11-09..2026-11-11" } },
  ],
  at: (s, i, ctx) => weekdaySpan(s, i, ctx.today),
};

/** Every period rule, in the order they are tried: the longest and most particular forms first. */
export const PERIOD_RULES: readonly PeriodRule[] = [
  partOfADay,
  todayOrYesterday,
  commandForm,
  unitsAgo,
  thisOrToDate,
  lastNUnits,
  quarterSaid,
  halfSaid,
  sinceStart,
  fromTo,
  weekdayToWeekday,
  partOfAMonth,
  weekOfAMonth,
  dayByNumber,
  unitBeforeLast,
  lastOrPastUnit,
  notYetOrTooLong,
  dateSaid,
  monthSaid,
  weekdaySaid,
];

/** The period the words at `i` say, if any. */
function bareAt(s: Sentence, i: number, ctx: RuleContext, spans: boolean): Hit {
  for (const rule of PERIOD_RULES) {
    if (rule.span && !spans) continue;
    const found = rule.at(s, i, ctx);
    if (found) return found;
  }
  return null;
}

/**
 * The period said at `i`, taking a leading `in`/`for`/`during`/`over`/`on` (and `the`) with it.
 * `spans: false` leaves out the `X to Y` spans, for where the "to" may join two periods instead.
 *
 * @example periodAt(new Sentence(["in", "october"]), 0, ctx) // { len: 2, range: { spec: "2026-10-01..2026-10-31", … } } on 2026-11-18
 */
export function periodAt(s: Sentence, i: number, ctx: RuleContext, spans = true): PeriodHit | null {
  const today = ctx.today;
  const bare = bareAt(s, i, ctx, spans);
  if (bare) return bare;
  const w = s.free(i);
  if (w === "the") {
    const inner = bareAt(s, i + 1, ctx, spans);
    return inner ? { ...inner, len: inner.len + 1 } : null;
  }
  // "at the weekend", as the British say it.
  if (w === "at" && s.match(i + 1, "the weekend") === 2) {
    const weekend = thisUnit(s, i + 1, today, true);
    if (weekend) return { ...weekend, len: weekend.len + 1 };
  }
  if (w === undefined || !CUES.has(w)) return null;
  const the = s.free(i + 1) === "the" ? 1 : 0;
  const inner = bareAt(s, i + 1 + the, ctx, spans);
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

/** Examples of periods read with the words around them. */
export const PERIOD_EXAMPLES: readonly Example[] = [
  { q: "violations in 2025", reads: { range: "2025-01-01..2025-12-31" } },
  { q: "findings over the weekend", reads: { range: "2026-11-14..2026-11-15" } },
  { q: "what happened at the weekend", reads: { range: "2026-11-14..2026-11-15" } },
];

export const periodPass: Pass = {
  name: "periods",
  why: "before names and metrics: 'the last 2 weeks' and 'Q3' hold numbers and words names may hold",
  run(s, found, ctx) {
    scan(s, (i) => {
      if (found.periods.length > 0) return 0;
      const p = periodAt(s, i, ctx);
      if (p) found.periods.push(p);
      return p?.len ?? 0;
    });
  },
};
