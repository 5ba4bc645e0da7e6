import { CronExpressionParser } from "cron-parser";
import { AppError } from "../errors.ts";
import { todayIn } from "../insights/dayjs.ts";
import { countsFromEnd, gateOpen, monthDayCron, monthDayWords } from "./month-day.ts";
import type { MonthDay, Schedule, Weekday } from "./types.ts";

/**
 * Schedule math, pure. BullMQ's job schedulers compute fire times with this same cron-parser (pinned
 * to BullMQ's exact version so the two share one copy: `CronExpressionParser.parse(pattern,
 * { currentDate, tz })` then `next()`), so what the modal previews is what
 * the scheduler does, DST included: a time that does not exist on the spring-forward day fires an
 * hour later on the wall clock (02:30 → 03:30), and a time that occurs twice on the fall-back day
 * fires once, at its first occurrence.
 *
 * A few monthly days have no exact cron pattern (the 29th or 30th in short months, the first or last
 * working day): those fire on a superset of days and carry a gate that only the run days pass
 * (month-day.ts). Every function here that lists runs applies the gate, as the fan-out does.
 */

/** What BullMQ's `upsertJobScheduler` gets, and the gate its fires must pass (absent: every fire runs). */
export interface CronSpec {
  pattern: string;
  tz: string;
  gate?: string;
}

const CRON_DAY: Record<Weekday, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const DAY_ORDER: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function invalid(field: string, message: string): AppError<"invalid_subscription"> {
  return new AppError("invalid_subscription", message, { details: { field } });
}

/** Parses "HH:MM" (24-hour, two digits each). */
export function parseTime(time: string): { hour: number; minute: number } {
  const m = TIME.exec(time);
  if (!m)
    throw invalid("time", `"${String(time).slice(0, 20)}" is not a time; use HH:MM, 24-hour, e.g. 09:00.`);
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** Weekdays deduplicated in calendar order (Mon first). */
export function sortDays(days: readonly Weekday[]): Weekday[] {
  return DAY_ORDER.filter((d) => days.includes(d));
}

/**
 * Checks a user's cron expression: 5 fields (minute hour day month weekday), or 6 with a leading
 * seconds field when `allowSeconds` (tests fire every second). Returns it with spaces normalised.
 */
export function checkCronExpression(expression: string, opts: { allowSeconds?: boolean } = {}): string {
  const fields = String(expression).trim().split(/\s+/);
  const allowed = opts.allowSeconds ? [5, 6] : [5];
  if (!allowed.includes(fields.length)) {
    throw invalid(
      "schedule",
      "A cron expression has 5 fields: minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5.",
    );
  }
  const normalized = fields.join(" ");
  try {
    CronExpressionParser.parse(normalized, { currentDate: new Date(0), tz: "UTC" }).next();
  } catch {
    throw invalid(
      "schedule",
      `"${normalized.slice(0, 60)}" is not a valid cron expression, e.g. 0 9 * * 1-5.`,
    );
  }
  return normalized;
}

/** The quarter's months a quarterly day runs in: its first month's, or its last's for days counted from the end. */
const QUARTER_MONTHS = { start: "1,4,7,10", end: "3,6,9,12" };

function monthlyCron(on: MonthDay, months: string, minute: number, hour: number, tz: string): CronSpec {
  const { dom, dow, gate } = monthDayCron(on);
  return { pattern: `${minute} ${hour} ${dom} ${months} ${dow}`, tz, ...(gate ? { gate } : {}) };
}

/**
 * The cron pattern and zone for a schedule (and its gate, for the days cron cannot say exactly); every
 * kind but hourly and cron fires at `time` in `tz`, hourly at its minute.
 */
export function cronFor(schedule: Schedule, time: string, tz: string): CronSpec {
  if (schedule.kind === "cron") return { pattern: schedule.expression, tz };
  const { hour, minute } = parseTime(time);
  switch (schedule.kind) {
    case "hourly":
      return { pattern: `${minute} * * * *`, tz };
    case "daily":
      return { pattern: `${minute} ${hour} * * *`, tz };
    case "weekdays":
      // Spelled as a weekly Mon–Fri schedule is, so the two share one slot.
      return { pattern: `${minute} ${hour} * * 1,2,3,4,5`, tz };
    case "monthly":
      return monthlyCron(schedule.on, "*", minute, hour, tz);
    case "quarterly": {
      const months = countsFromEnd(schedule.on) ? QUARTER_MONTHS.end : QUARTER_MONTHS.start;
      return monthlyCron(schedule.on, months, minute, hour, tz);
    }
    case "weekly": {
      const days = sortDays(schedule.days)
        .map((d) => CRON_DAY[d])
        .join(",");
      if (days === "") throw invalid("schedule", "A weekly subscription needs at least one weekday.");
      return { pattern: `${minute} ${hour} * * ${days}`, tz };
    }
  }
}

/** Whether a fire at `at` of a slot with this gate goes out (its local date in `tz` is a run day). */
export function firesAt(gate: string | undefined, tz: string, at: Date): boolean {
  return gate === undefined || gateOpen(gate, todayIn(at, tz));
}

/**
 * How many cron fires a listing walks at most per run it returns: a gated pattern fires on up to six
 * days of a month for one run (the last working day), and twelve months is far beyond any of ours.
 */
const STEPS_PER_RUN = 400;

/**
 * The next `n` fire times strictly after `from`, exactly as the BullMQ scheduler will compute them
 * (and, for a gated schedule, as its fan-out lets them through).
 *
 * @example nextRuns({ kind: "weekly", days: ["mon"] }, "09:00", "Europe/Berlin", new Date("2026-03-25T00:00:00Z"), 2)
 *   // [2026-03-30T07:00:00Z (summer time), 2026-04-06T07:00:00Z]
 */
export function nextRuns(schedule: Schedule, time: string, tz: string, from: Date, n = 5): Date[] {
  const { pattern, gate } = cronFor(schedule, time, tz);
  const it = CronExpressionParser.parse(pattern, { currentDate: from, tz });
  const out: Date[] = [];
  for (let steps = 0; out.length < n && steps < n * STEPS_PER_RUN; steps++) {
    const at = it.next().toDate();
    if (firesAt(gate, tz, at)) out.push(at);
  }
  return out;
}

/**
 * The latest fire of a gated slot's `pattern` after `after` and at or before `at` that passes its gate,
 * or null. BullMQ runs a scheduler's pending fire late after an outage and then goes on from the
 * present, so the fires in between are never made: for a gated slot the pending fire may be a
 * candidate day that is not a run day, while the run day came and went. That run day is caught up
 * (the latest one, as an ungated slot delivers one late run, not a backlog).
 */
export function gatedRunBetween(
  pattern: string,
  tz: string,
  gate: string,
  after: Date,
  at: Date,
): Date | null {
  const it = CronExpressionParser.parse(pattern, { currentDate: new Date(at.getTime() + 1), tz });
  try {
    for (let steps = 0; steps < STEPS_PER_RUN; steps++) {
      const fire = it.prev().toDate();
      if (fire.getTime() <= after.getTime()) return null;
      if (firesAt(gate, tz, fire)) return fire;
    }
  } catch {
    // No earlier fire: nothing was missed.
  }
  return null;
}

/** The latest run at or before `at`, or null when there is none (never for our kinds). */
export function previousRun(schedule: Schedule, time: string, tz: string, at: Date): Date | null {
  const { pattern, gate } = cronFor(schedule, time, tz);
  // cron-parser's prev() is strictly before currentDate; nudge so a run exactly at `at` counts.
  const it = CronExpressionParser.parse(pattern, { currentDate: new Date(at.getTime() + 1), tz });
  try {
    for (let steps = 0; steps < STEPS_PER_RUN; steps++) {
      const fire = it.prev().toDate();
      if (firesAt(gate, tz, fire)) return fire;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The shortest gap between consecutive runs over the next `samples` runs, to refuse spammy cron
 * schedules. The kinds with a time of day never run twice within 23 hours (a DST day), hourly ones
 * once an hour, so they are not sampled: cron-parser with a zone costs several ms per step.
 */
export function shortestGapMs(
  schedule: Schedule,
  time: string,
  tz: string,
  from: Date,
  samples = 12,
): number {
  if (schedule.kind === "hourly") return 3_600_000;
  if (schedule.kind !== "cron") return 23 * 3_600_000;
  const runs = nextRuns(schedule, time, tz, from, samples);
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < runs.length; i++)
    gap = Math.min(gap, (runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime());
  return gap;
}

const label = (d: Weekday) => `${d.charAt(0).toUpperCase()}${d.slice(1)}`;

/**
 * A schedule in words, for lists and confirmations.
 *
 * @example scheduleText({ kind: "weekly", days: ["thu", "mon"] }, "09:00", "Europe/Berlin")
 *   // "Weekly on Mon, Thu at 09:00 Europe/Berlin"
 */
export function scheduleText(schedule: Schedule, time: string, tz: string): string {
  switch (schedule.kind) {
    case "hourly":
      return `Hourly at :${time.slice(3, 5)} ${tz}`;
    case "weekly":
      return `Weekly on ${sortDays(schedule.days).map(label).join(", ")} at ${time} ${tz}`;
    case "cron":
      return `Cron ${schedule.expression} ${tz}`;
    default:
      return `${calendarWords(schedule)} at ${time} ${tz}`;
  }
}

/**
 * The days of a daily, working-day, monthly or quarterly schedule in words, shared by every surface.
 *
 * @example calendarWords({ kind: "monthly", on: { kind: "workday", which: "last" } })
 *   // "Monthly on the last working day (Mon–Fri)"
 */
export function calendarWords(
  schedule: Extract<Schedule, { kind: "daily" | "weekdays" | "monthly" | "quarterly" }>,
): string {
  switch (schedule.kind) {
    case "daily":
      return "Daily";
    case "weekdays":
      return "Weekdays (Mon–Fri)";
    case "monthly":
      return `Monthly on ${monthDayWords(schedule.on)}`;
    case "quarterly": {
      const months = countsFromEnd(schedule.on) ? "Mar, Jun, Sep, Dec" : "Jan, Apr, Jul, Oct";
      return `Quarterly on ${monthDayWords(schedule.on)} of ${months}`;
    }
  }
}
