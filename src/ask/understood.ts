import type { IsoDay } from "../analytics/types.ts";
import { buildRange } from "../insights/ranges.ts";
import { calendarWords } from "../subscriptions/schedule.ts";
import { METRIC_NAMES } from "./metrics.ts";
import { periodDays, periodLabel } from "./period-core.ts";
import { subjectNames } from "./read.ts";
import type { AskMetric, AskReading, AskSchedule, DayRange } from "./types.ts";

/**
 * How a reading is said back: the "understood" line every answer starts with, so a misread shows
 * before any number does, and the plan of queries behind the comparison it names.
 */

/** The period the numbers are compared with, and whether that takes a second query. */
export interface ComparePlan {
  from: IsoDay;
  to: IsoDay;
  /** `previous`: the service's own previous period (one query); `second_query`: these days asked for apart. */
  how: "previous" | "second_query";
  /** Why a second query, in words ("the periods are 31 and 30 days"). */
  why?: string;
}

const NO_EARLIER: readonly AskMetric[] = ["fixes", "merged", "fixRate"];

/**
 * The comparison behind an answer. The service reports the equally long period just before the
 * range (findings and violations only); any other period, or fixes and merged violations, take a
 * second query for the days compared with.
 */
export function comparePlan(r: AskReading, tz: string): ComparePlan {
  const base = buildRange(r.range.spec, r.range.from, r.range.to, tz);
  const c = r.comparison ?? { from: base.previousFrom, to: base.previousTo, how: "previous" as const };
  if (c.how === "second_query") {
    const a = periodDays(r.range);
    const b = periodDays(c);
    const why = a === b ? "not the period just before" : `the periods are ${a} and ${b} days`;
    return { from: c.from, to: c.to, how: "second_query", why };
  }
  if (r.metrics.some((m) => NO_EARLIER.includes(m)))
    return {
      from: c.from,
      to: c.to,
      how: "second_query",
      why: "the service reports no earlier fixes or merged violations",
    };
  return { from: c.from, to: c.to, how: "previous" };
}

const INTENT_WORDS: Record<AskReading["intent"], string> = {
  digest: "",
  drivers: "Why it changed",
  trend: "Trend",
  export: "CSV export",
  subscribe: "Scheduled digest by DM",
  alert: "Alert by DM",
  help: "Help",
};

export function metricWords(metrics: readonly AskMetric[]): string {
  if (metrics.length === 0) return "All numbers";
  const names = metrics.map((m, i) => (i === 0 ? METRIC_NAMES[m] : METRIC_NAMES[m].toLowerCase()));
  return names.length === 1 ? (names[0] as string) : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** A rolling period in words, as a schedule repeats it. */
export function rollingWords(spec: string): string {
  const last = /^last(\d+)d$/.exec(spec);
  if (last) return last[1] === "1" ? "today" : `the last ${last[1]} days`;
  return (
    {
      thisweek: "this week so far",
      lastweek: "last week",
      thismonth: "this month so far",
      lastmonth: "last month",
      yesterday: "yesterday",
      thisquarter: "this quarter so far",
      lastquarter: "last quarter",
      ytd: "the year so far",
    }[spec] ?? spec
  );
}

const DAY_NAMES: Record<string, string> = {
  mon: "Mon",
  tue: "Tue",
  wed: "Wed",
  thu: "Thu",
  fri: "Fri",
  sat: "Sat",
  sun: "Sun",
};

export function scheduleWords(s: AskSchedule): string {
  switch (s.frequency) {
    case "hourly":
      return "checked every hour";
    case "weekly":
      return `weekly on ${s.days.map((d) => DAY_NAMES[d] ?? d).join(", ")} at ${s.time}`;
    case "monthly":
    case "quarterly": {
      // The subscription's own words for its day, as lists and confirmations say it.
      const words = calendarWords({ kind: s.frequency, on: s.on ?? { kind: "day", day: 1 } });
      return `${words.charAt(0).toLowerCase()}${words.slice(1)} at ${s.time}`;
    }
    default:
      return `${s.frequency === "daily" ? "daily" : "on weekdays (Mon–Fri)"} at ${s.time}`;
  }
}

/** One part of the understood line for each thing the reading decided; user names are returned raw. */
export interface UnderstoodParts {
  what: string;
  subjects: string[];
  period: string;
  comparison?: string;
  schedule?: string;
  condition?: string;
  /** The words read by a guess: `“violatoins” as violations`. */
  readAs?: string;
}

export function understoodParts(r: AskReading, tz: string): UnderstoodParts {
  const intent = INTENT_WORDS[r.intent];
  const metrics = metricWords(r.metrics);
  // An alert watches its condition's number; "All numbers" would say nothing there.
  const what =
    r.intent === "alert" && r.metrics.length === 0 ? intent : intent ? `${intent}: ${metrics}` : metrics;
  const parts: UnderstoodParts = { what, subjects: subjectNames(r.subjects), period: periodLabel(r.range) };
  if (r.readAs && r.readAs.length > 0)
    parts.readAs = `read ${r.readAs.map((x) => `“${x.typed}” as ${x.as}`).join(", ")}`;
  if (r.intent === "subscribe" || r.intent === "alert") {
    parts.period = `${rollingWords(r.range.spec)} each run`;
    if (r.schedule) parts.schedule = `${scheduleWords(r.schedule)} (${r.schedule.tz ?? tz})`;
    if (r.condition) parts.condition = r.condition;
    return parts;
  }
  if (r.intent === "export") return parts;
  const plan = comparePlan(r, tz);
  const label = periodLabel(plan);
  parts.comparison =
    plan.how === "previous"
      ? `vs ${label} (the service's previous period, one query)`
      : `vs ${label} (a second query: ${plan.why})`;
  return parts;
}

/**
 * The understood line as plain text: `Violations · payments/* · Oct 1 – Oct 31, 2026 vs Sep 1 –
 * Sep 30, 2026 (a second query: the periods are 31 and 30 days)`. Every field of the reading shows
 * in it, so two different readings never read the same.
 */
export function understoodText(r: AskReading, tz: string): string {
  const p = understoodParts(r, tz);
  const subjects = p.subjects.length > 0 ? p.subjects.join(", ") : "all assets and scanners";
  const period = p.comparison ? `${p.period} ${p.comparison}` : p.period;
  return [p.what, p.condition, p.schedule, subjects, period, p.readAs].filter(Boolean).join(" · ");
}

/** The period's days and label, for answers that name both. */
export function describePeriod(r: DayRange): string {
  const n = periodDays(r);
  return `${periodLabel(r)} (${n} day${n === 1 ? "" : "s"})`;
}
