import type { IsoDay } from "../../analytics/types.ts";
import {
  addDays,
  addMonths,
  calendarUnit,
  dayOf,
  endOfMonth,
  mondayOf,
  monthOf,
  quarterDays,
  quarterOf,
  UNIT_LENGTH,
  type Unit,
  unitsBefore,
  yearOf,
} from "../calendar.ts";
import { type PeriodHit, period, periodDays, UNITS } from "../period-core.ts";
import type { Sentence } from "../sentence.ts";
import type { DayRange } from "../types.ts";
import { numberOf } from "../vocabulary.ts";
import type { OverUnit, Pass, SaidComparison } from "./found.ts";
import { periodAt } from "./periods.ts";
import { firstAt, type Rule, type RuleContext, scan } from "./rule.ts";

/**
 * "compared with last month", "vs the week before", "than in September", "week over week": the
 * period a question compares with. Relative forms ("the month before") depend on the period asked
 * about, which may come later in the sentence, so they are found first and resolved afterwards.
 */

const UNIT_WORDS: Record<string, Unit> = {
  day: "day",
  week: "week",
  fortnight: "fortnight",
  month: "month",
  quarter: "quarter",
  year: "year",
};

/**
 * `X over X` and its abbreviations: the last whole unit against the one before. ("DoD" is left out:
 * it names other things more often than a day.)
 */
const OVER: Record<string, OverUnit> = {
  wow: "week",
  mom: "month",
  qoq: "quarter",
  yoy: "year",
};

export interface ComparisonHit {
  len: number;
  said: SaidComparison;
  /** The unit of an "X over X", which implies the period asked about ("week over week": last week). */
  impliedMain?: OverUnit;
}

/** The relative forms after a comparison word. */
function relative(s: Sentence, j: number): { len: number; said: SaidComparison } | null {
  const the = s.free(j) === "the" ? 1 : 0;
  const k = j + the;
  const unit = UNIT_WORDS[s.free(k) ?? ""];
  // ("the day before yesterday" is a period: read below.)
  if (
    (unit || s.free(k) === "period") &&
    s.match(k + 1, "before|prior|earlier|preceding") === 1 &&
    !(unit === "day" && s.free(k + 2) === "yesterday")
  )
    return { len: the + 2, said: unit ? { kind: "before", unit } : { kind: "previous" } };
  if (s.match(k, "previous|prior|preceding") === 1) {
    const u = UNIT_WORDS[s.free(k + 1) ?? ""];
    if (u) return { len: the + 2, said: { kind: "before", unit: u } };
    if (s.free(k + 1) === "period") return { len: the + 2, said: { kind: "previous" } };
  }
  const n = numberOf(s.free(k));
  const span = UNITS[s.free(k + 1) ?? ""];
  if (n !== undefined && n >= 1 && span && s.match(k + 2, "before|prior|earlier|preceding") === 1)
    return { len: the + 3, said: { kind: "span_before", n, unit: span } };
  if (s.free(j) === "before") return { len: 1, said: { kind: "previous" } };
  const same = Math.max(
    s.match(k, "same|this period|time|days|dates|day|week|month|quarter last year"),
    s.match(k, "same|this period|time|days|dates|day|week|month|quarter a|one year ago|earlier"),
  );
  // "the same day last week", "the same week last month": that unit back.
  const sameLast = s.match(k, "same period|time|days|dates|day|week last week|month|quarter");
  if (sameLast === 4)
    return { len: the + 4, said: { kind: "ago", n: 1, unit: UNIT_WORDS[s.words[k + 3] as string] as Unit } };
  if (same > 0)
    return {
      len: the + same,
      said:
        s.words[k + 1] === "week"
          ? { kind: "ago", n: 52, unit: "week" }
          : { kind: "ago", n: 1, unit: "year" },
    };
  const back = numberOf(s.free(j));
  const backUnit = UNIT_WORDS[(s.free(j + 1) ?? "").replace(/s$/, "")];
  if (back !== undefined && back >= 1 && backUnit && s.free(j + 2) === "ago")
    return { len: 3, said: { kind: "ago", n: back, unit: backUnit, fromNow: true } };
  if (s.match(j, "last year") === 2) return { len: 2, said: { kind: "ago", n: 1, unit: "year" } };
  return null;
}

type ComparisonRule = Rule<ComparisonHit>;

/** "week over week", "month-on-month", "WoW", "YoY": the last whole unit against the one before. */
const overUnit: ComparisonRule = {
  name: "unit over unit",
  examples: [
    { q: "violations week over week", reads: { range: "lastweek", vs: "2026-11-02..2026-11-08" } },
    { q: "findings month-on-month", reads: { range: "lastmonth", vs: "2026-09-01..2026-09-30" } },
    { q: "fixes yoy", reads: { range: "2026-01-01..2026-11-18", vs: "2025-01-01..2025-11-18" } },
    // A day is a unit like the others: the last whole one, yesterday, against the day before it.
    { q: "findings day over day", reads: { range: "2026-11-17", vs: "2026-11-16" } },
    {
      q: "violations day-on-day in infra",
      reads: { range: "2026-11-17", vs: "2026-11-16", groups: ["infra"] },
    },
  ],
  at(s, i) {
    const w = s.free(i);
    const abbreviated = w === undefined ? undefined : OVER[w];
    if (abbreviated) return { len: 1, said: { kind: "before", unit: abbreviated }, impliedMain: abbreviated };
    const over = s.match(i, "day|week|month|quarter|year -? over|on -? day|week|month|quarter|year");
    if (over >= 3 && s.words[i] === s.words[i + over - 1]) {
      const unit = UNIT_WORDS[s.words[i] as string] as OverUnit;
      return { len: over, said: { kind: "before", unit }, impliedMain: unit };
    }
    return null;
  },
};

/** "than they were", "than it was": words between a comparison's marker and its period. */
const THAN_WERE = "they|it|we|things|numbers|those|these|that were|was|did|looked|stood|are|is|had";

/**
 * "last" alone after the marker ("this week vs last"), "the one before", "the previous one", "before
 * that": the unit before the period asked about, whole, of its own kind.
 */
function elliptic(s: Sentence, j: number, ctx: RuleContext): number {
  const said = Math.max(
    s.match(j, "the? one before|prior|earlier"),
    s.match(j, "the? previous|prior|last one"),
    s.match(j, "before that|it"),
  );
  if (said > 0) return said;
  const last = s.match(j, "last|previous|prior");
  return last === 1 && periodAt(s, j, ctx) === null && !UNITS[s.free(j + 1) ?? ""] ? 1 : 0;
}

/**
 * "compared with last month", "vs the week before", "than in September", "this week vs last",
 * "than they were last week": a comparison said with its marker.
 */
const marked: ComparisonRule = {
  name: "a comparison said with its marker",
  examples: [
    { q: "violations this week vs last", reads: { range: "thisweek", vs: "2026-11-09..2026-11-15" } },
    {
      q: "findings this month compared to last",
      reads: { range: "thismonth", vs: "2026-10-01..2026-10-31" },
    },
    { q: "compare this month with last", reads: { range: "thismonth", vs: "2026-10-01..2026-10-31" } },
    {
      q: "fixes this year versus last",
      reads: { range: "2026-01-01..2026-11-18", vs: "2025-01-01..2025-12-31" },
    },
    {
      q: "violations last week compared with the one before",
      reads: { range: "lastweek", vs: "2026-11-02..2026-11-08" },
    },
    {
      q: "are violations in payments higher than they were last week?",
      reads: { range: "2026-11-16..2026-11-18", vs: "2026-11-09..2026-11-15", groups: ["payments"] },
    },
    {
      q: "violations in October compared with September",
      reads: { range: "2026-10-01..2026-10-31", vs: "2026-09-01..2026-09-30" },
    },
  ],
  at(s, i, ctx) {
    const marker = Math.max(
      s.match(i, "compared|compare|comparing|comparison with|to|against|vs?"),
      s.match(i, "vs|against|than"),
      s.match(i, "relative to"),
      s.match(i, "stack|stacks up against|to|with"),
    );
    if (marker < 0) return null;
    const were = s.words[i] === "than" ? Math.max(0, s.match(i + marker, THAN_WERE)) : 0;
    const j = i + marker + were;
    const ellipsis = elliptic(s, j, ctx);
    if (ellipsis > 0) return { len: j - i + ellipsis, said: { kind: "elliptic" } };
    const rel = relative(s, j);
    if (rel) return { len: j - i + rel.len, said: rel.said };
    const p: PeriodHit | null = periodAt(s, j, ctx);
    if (!p) return null;
    return {
      len: j - i + p.len,
      said: "range" in p ? { kind: "period", range: p.range } : { kind: "problem", problem: p.problem },
    };
  },
};

/** The comparison rules, tried in this order at each word. */
export const COMPARISON_RULES: readonly ComparisonRule[] = [overUnit, marked];

/** A comparison starting at `i`, marker word included. */
export function comparisonAt(s: Sentence, i: number, ctx: RuleContext): ComparisonHit | null {
  return firstAt(COMPARISON_RULES, s, i, ctx);
}

/** The spans of the calendar a period may be, largest first. */
const CALENDAR_UNITS: readonly Unit[] = ["year", "quarter", "month", "week", "day"];

/** The unit a period is one of (this week so far is a week), by its form or its days; none for "the last 30 days". */
function unitOf(main: DayRange, today: IsoDay): Unit | undefined {
  const bySpec: Readonly<Record<string, Unit>> = {
    thisweek: "week",
    lastweek: "week",
    thismonth: "month",
    lastmonth: "month",
    thisquarter: "quarter",
    lastquarter: "quarter",
    ytd: "year",
    yesterday: "day",
    last1d: "day",
  };
  if (Object.hasOwn(bySpec, main.spec)) return bySpec[main.spec];
  if (/^last\d+d$/.test(main.spec)) return undefined;
  return CALENDAR_UNITS.find((u) => {
    const c = calendarUnit(u, main.from);
    return (
      c !== undefined && c.from === main.from && (c.to === main.to || (main.to === today && c.to > today))
    );
  });
}

/**
 * The days of a comparison against the period asked about. Whole weeks, months and quarters are
 * compared with the whole unit before; anything else moves back by the unit.
 */
export function resolveComparison(
  said: Exclude<SaidComparison, { kind: "problem" }>,
  main: DayRange,
  previous: { from: IsoDay; to: IsoDay },
  today: IsoDay,
): { range: DayRange } | { problem: string } {
  switch (said.kind) {
    case "period":
      return { range: said.range };
    case "previous":
      return period(previous.from, previous.to, today);
    case "elliptic": {
      const unit = unitOf(main, today);
      const before = unit ? calendarUnit(unit, addDays(main.from, -1)) : undefined;
      return before ? period(before.from, before.to, today) : period(previous.from, previous.to, today);
    }
    case "ago":
      return agoOf(said, main, today);
    case "before":
      return beforeUnit(said.unit, main, today);
    case "span_before":
      return period(unitsBefore(main.from, said.unit, said.n), addDays(main.from, -1), today);
  }
}

/**
 * The same days `n` units earlier. Said as "N units ago" about a whole unit of that kind ("last week vs
 * 2 weeks ago", "last month vs 2 months ago"), it is the unit N back from today's, as the words mean
 * alone, unless that one is not before it ("Q2 vs a quarter ago": the quarter before Q2). Otherwise
 * the period moves back keeping its length, and whole months stay whole months ("February vs a month
 * ago": all of January; "the same period last year" across February 29th: still 7 days).
 */
function agoOf(said: { n: number; unit: Unit; fromNow?: true }, main: DayRange, today: IsoDay) {
  const { n, unit } = said;
  const own = calendarUnit(unit, main.from);
  if (own && own.from === main.from && own.to === main.to) {
    const fromToday = said.fromNow ? calendarUnit(unit, unitsBefore(today, unit, n)) : undefined;
    const back =
      fromToday && fromToday.to < main.from ? fromToday : calendarUnit(unit, unitsBefore(main.from, unit, n));
    if (back) return period(back.from, back.to, today);
  }
  const wholeMonths =
    "months" in UNIT_LENGTH[unit] &&
    main.from.endsWith("-01") &&
    main.to === endOfMonth(yearOf(main.to), monthOf(main.to));
  if (wholeMonths) {
    const last = unitsBefore(dayOf(yearOf(main.to), monthOf(main.to), 1) as IsoDay, unit, n);
    return period(unitsBefore(main.from, unit, n), endOfMonth(yearOf(last), monthOf(last)), today);
  }
  const to = unitsBefore(main.to, unit, n);
  return period(addDays(to, 1 - periodDays(main)), to, today);
}

function beforeUnit(unit: Unit, main: DayRange, today: IsoDay) {
  const from = main.from;
  switch (unit) {
    case "day": {
      const d = addDays(from, -1);
      return period(d, d, today);
    }
    case "week": {
      const monday = mondayOf(from);
      // This week so far counts as the week; a span that happens to end today does not ("Monday to
      // Friday" asked on a Friday).
      const whole = from === monday && (main.to === addDays(monday, 6) || main.spec === "thisweek");
      // A week or less that is not one ("Monday to Friday", "Friday to Monday", "yesterday"): the
      // same weekdays a week back.
      if (!whole && periodDays(main) <= 7) return period(addDays(from, -7), addDays(main.to, -7), today);
      return period(addDays(monday, -7), addDays(monday, -1), today);
    }
    // A fortnight has no place in the calendar: the 14 days before.
    case "fortnight":
      return period(unitsBefore(from, "fortnight", 1), addDays(from, -1), today);
    case "month": {
      const y = yearOf(from);
      const m = monthOf(from) - 1;
      return period(dayOf(y, m, 1) as IsoDay, endOfMonth(y, m), today);
    }
    case "quarter": {
      const q = quarterOf(from);
      const { from: f, to } = q === 1 ? quarterDays(yearOf(from) - 1, 4) : quarterDays(yearOf(from), q - 1);
      return period(f, to, today);
    }
    case "year":
      return period(addMonths(main.from, -12), addMonths(main.to, -12), today);
  }
}

/** A period of whole months (or a quarter): what "between October and September" compares. */
function wholeMonths(r: DayRange, today: IsoDay): boolean {
  if (!r.from.endsWith("-01")) return false;
  const end = endOfMonth(yearOf(r.to), monthOf(r.to));
  return r.to === end || r.to === today;
}

/**
 * Two periods said together: "compare October to September" (the first is asked about, the second
 * compared with) and "between October and September" with whole months or quarters, which is a
 * comparison (the later one asked about), not a span of eleven months.
 */
export function pairAt(
  s: Sentence,
  i: number,
  ctx: RuleContext,
): { len: number; main: DayRange; said: SaidComparison } | null {
  const compare = s.match(i, "compare|compared|comparing|difference|change between?");
  const between = s.free(i) === "between" ? 1 : 0;
  const lead = Math.max(compare, between);
  if (lead <= 0) return null;
  const afterBetween = between === 1 || s.words[i + lead - 1] === "between";
  const jointWords = afterBetween ? "and" : "to|with|and|against|vs";
  // "compare October to September": the "to" joins the two periods, so when the first period read
  // as a span ("October to September") leaves no joint, it is read again without spans.
  const today = ctx.today;
  let first = periodAt(s, i + lead, ctx);
  if (first && "range" in first && s.match(i + lead + first.len, jointWords) !== 1)
    first = periodAt(s, i + lead, ctx, false);
  if (!first || !("range" in first)) return null;
  const joint = s.match(i + lead + first.len, jointWords);
  if (joint !== 1) return null;
  const at = i + lead + first.len + 1;
  // "compare last week to the week before", "compare Q3 with last year": the second one relative to the first.
  const rel = afterBetween ? null : relative(s, at);
  if (rel) return { len: lead + first.len + 1 + rel.len, main: first.range, said: rel.said };
  // "compare this month with last": the one before, of its own kind.
  const ellipsis = afterBetween ? 0 : elliptic(s, at, ctx);
  if (ellipsis > 0)
    return { len: lead + first.len + 1 + ellipsis, main: first.range, said: { kind: "elliptic" } };
  const second = periodAt(s, at, ctx);
  if (!second || !("range" in second)) return null;
  const len = lead + first.len + 1 + second.len;
  if (afterBetween) {
    if (!wholeMonths(first.range, today) || !wholeMonths(second.range, today)) return null;
    const [main, vs] =
      first.range.from > second.range.from ? [first.range, second.range] : [second.range, first.range];
    return { len, main, said: { kind: "period", range: vs } };
  }
  return { len, main: first.range, said: { kind: "period", range: second.range } };
}

export const pairPass: Pass = {
  name: "period pairs",
  why: "before comparisons and periods: 'compare October to September' says both periods at once",
  run(s, found, ctx) {
    scan(s, (i) => {
      const pair = pairAt(s, i, ctx);
      if (!pair || found.said) return 0;
      found.periods.push({ len: pair.len, range: pair.main });
      found.said = pair.said;
      return pair.len;
    });
  },
};

export const comparisonPass: Pass = {
  name: "comparisons",
  why: "before periods: 'vs last month' is not the period asked about",
  run(s, found, ctx) {
    scan(s, (i) => {
      const c = comparisonAt(s, i, ctx);
      if (!c || found.said) return 0;
      found.said = c.said;
      found.implied = c.impliedMain;
      return c.len;
    });
  },
};
