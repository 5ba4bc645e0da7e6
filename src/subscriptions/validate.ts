import { AppError } from "../errors.ts";
import { assertTimeZone } from "../insights/dayjs.ts";
import { parseRange } from "../insights/ranges.ts";
import { CHART_STYLES } from "../insights/types.ts";
import { conditionText, parseCondition } from "./conditions.ts";
import { monthDayText, parseMonthDayText } from "./month-day.ts";
import { checkCronExpression, parseTime, shortestGapMs, sortDays } from "./schedule.ts";
import {
  type MonthDay,
  type Schedule,
  type Subscription,
  type SubscriptionInput,
  WEEKDAYS,
  type Weekday,
} from "./types.ts";

/** Limits on what a subscription may ask for. */
export interface SubscriptionLimits {
  /** Shortest allowed gap between two runs [1 hour]; below one minute, 6-field (seconds) crons are accepted. */
  minIntervalMs: number;
  /** Most filters of each kind [20]. */
  maxFilters: number;
}

/** Production limits: at most hourly crons, 20 filters of each kind. */
export const DEFAULT_LIMITS: SubscriptionLimits = { minIntervalMs: 3_600_000, maxFilters: 20 };

/**
 * The checked, normalised fields of a subscription: every field set, but `drivers` only when the
 * caller chose (absent stays absent: on by default), and the condition, mode and style only when they
 * differ from "every run posts a new digest" (absent is what older records mean).
 */
export type ValidFields = Required<
  Omit<SubscriptionInput, "drivers" | "chart" | "condition" | "mode" | "style" | "assetGroups">
> &
  Pick<SubscriptionInput, "drivers" | "chart" | "assetGroups"> &
  Pick<Subscription, "condition" | "mode" | "style">;

/** A channel, or a DM with the app (D…: a personal digest, opened with conversations.open). */
const CHANNEL = /^[CGD][A-Z0-9]{2,31}$/;
const LOOSE_TIME = /^(\d{1,2}):(\d{2})$/;

/** A field the caller got wrong; `details.field` names it and the message can be shown as is. */
export function invalidField(field: string, message: string): AppError<"invalid_subscription"> {
  return new AppError("invalid_subscription", message, { details: { field } });
}

/** A month day as given (object or canonical text), checked into its canonical object. */
function checkMonthDay(kind: "monthly" | "quarterly", on: unknown): MonthDay {
  const parsed =
    typeof on === "string"
      ? parseMonthDayText(on)
      : on && typeof on === "object"
        ? parseMonthDayText(monthDayText(on as MonthDay))
        : null;
  if (!parsed)
    throw invalidField(
      "schedule",
      `A ${kind} subscription runs on a day of the month (1–31), the first to fourth or last weekday (first mon, last fri), or the first or last working day.`,
    );
  return parsed;
}

function checkSchedule(s: unknown, limits: SubscriptionLimits): Schedule {
  const kind = (s as { kind?: unknown } | null)?.kind;
  if (kind === "daily" || kind === "hourly" || kind === "weekdays") return { kind };
  if (kind === "monthly" || kind === "quarterly")
    return { kind, on: checkMonthDay(kind, (s as { on?: unknown }).on) };
  if (kind === "weekly") {
    const days = (s as { days?: unknown }).days;
    if (!Array.isArray(days) || days.length === 0 || !days.every((d) => WEEKDAYS.includes(d as Weekday)))
      throw invalidField(
        "schedule",
        "A weekly subscription needs one or more of mon, tue, wed, thu, fri, sat, sun.",
      );
    return { kind, days: sortDays(days as Weekday[]) };
  }
  if (kind === "cron") {
    const expression = checkCronExpression(String((s as { expression?: unknown }).expression ?? ""), {
      allowSeconds: limits.minIntervalMs < 60_000,
    });
    return { kind, expression };
  }
  throw invalidField(
    "schedule",
    "The frequency must be hourly, daily, weekdays, weekly (with weekdays), monthly, quarterly or a cron expression.",
  );
}

function checkTime(time: unknown): string {
  const m = LOOSE_TIME.exec(String(time ?? "09:00").trim());
  const padded = m ? `${(m[1] as string).padStart(2, "0")}:${m[2]}` : String(time);
  parseTime(padded);
  return padded;
}

function checkList(field: string, value: unknown, max: number, maxLength: number): string[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every(
      (v) => typeof v === "string" && v.trim() !== "" && v.length <= maxLength && !/[\r\n]/.test(v),
    )
  )
    throw invalidField(field, `${field} must be a list of names or ids of up to ${maxLength} characters.`);
  const unique = [...new Set(value.map((v: string) => v.trim()))];
  if (unique.length > max) throw invalidField(field, `At most ${max} ${field} per subscription.`);
  return unique;
}

/** Asset groups, when there are any (a record without them has no field for them). */
function groupsOf(value: unknown, max: number): Pick<SubscriptionInput, "assetGroups"> {
  const groups = checkList("assetGroups", value, max, 200);
  return groups.length > 0 ? { assetGroups: groups } : {};
}

/** The condition, mode and style, checked: an alert needs a condition, and posts its own messages. */
function checkRunOptions(input: SubscriptionInput): Pick<Subscription, "condition" | "mode" | "style"> {
  const out: Pick<Subscription, "condition" | "mode" | "style"> = {};
  const text = typeof input.condition === "string" ? input.condition.trim() : "";
  if (input.condition !== undefined && typeof input.condition !== "string")
    throw invalidField("condition", "The condition is text, e.g. when violations > 500.");
  if (text !== "") {
    try {
      out.condition = conditionText(parseCondition(text));
    } catch (err) {
      throw invalidField("condition", err instanceof Error ? err.message : "Not a condition.");
    }
  }
  const mode = input.mode ?? "digest";
  if (mode !== "digest" && mode !== "alert") throw invalidField("mode", "The mode is digest or alert.");
  if (mode === "alert") {
    if (!out.condition)
      throw invalidField(
        "condition",
        "An alert needs a condition to watch, e.g. when violations > 500 or when violations up 20%.",
      );
    // An alert checks every run against the state it last told; it keeps no history of values.
    if (out.condition.includes(" rose "))
      throw invalidField(
        "condition",
        "An alert watches a threshold or a change (when violations > 500, when violations up 20%); for rose N, use a digest with that condition.",
      );
    out.mode = "alert";
  }
  const style = input.style ?? "post";
  if (style !== "post" && style !== "update" && style !== "thread")
    throw invalidField("style", "Messages are post (a new one each run), update (one a day) or thread.");
  // An alert's two messages (it started, it cleared) are news of their own: always new posts.
  if (style !== "post" && mode !== "alert") out.style = style;
  return out;
}

/**
 * Checks and normalises a subscription's fields against `now` (the range must resolve today in the
 * subscription's zone). Every problem is an `invalid_subscription` error naming the field.
 */
export function validateFields(
  input: SubscriptionInput,
  now: Date,
  limits: SubscriptionLimits = DEFAULT_LIMITS,
): ValidFields {
  if (typeof input.channelId !== "string" || !CHANNEL.test(input.channelId))
    throw invalidField(
      "channelId",
      "Subscriptions post to a channel (an id like C0123ABCD) or to your DMs with the app.",
    );
  const tz = String(input.tz ?? "").trim();
  try {
    assertTimeZone(tz);
  } catch (err) {
    throw invalidField("tz", err instanceof Error ? err.message : "Unknown timezone.");
  }
  const schedule = checkSchedule(input.schedule, limits);
  const time = checkTime(input.time);
  if (shortestGapMs(schedule, time, tz, now) < limits.minIntervalMs)
    throw invalidField(
      "schedule",
      `That schedule runs more often than every ${Math.round(limits.minIntervalMs / 60_000)} minutes.`,
    );
  let range: string;
  try {
    range = parseRange(String(input.range ?? "last7d"), { now, tz }).spec;
  } catch (err) {
    throw invalidField("range", err instanceof Error ? err.message : "Not a range.");
  }
  if (input.drivers !== undefined && typeof input.drivers !== "boolean")
    throw invalidField("drivers", "drivers is on or off (true or false).");
  if (input.chart !== undefined && !CHART_STYLES.includes(input.chart))
    throw invalidField("chart", "The chart is native, png or off.");
  return {
    channelId: input.channelId,
    schedule,
    time,
    tz,
    range,
    assetIds: checkList("assetIds", input.assetIds, limits.maxFilters, 200),
    ...groupsOf(input.assetGroups, limits.maxFilters),
    scannerIds: checkList("scannerIds", input.scannerIds, limits.maxFilters, 200),
    filterLabels: checkList("filterLabels", input.filterLabels, limits.maxFilters * 2, 300),
    ...(input.drivers !== undefined ? { drivers: input.drivers } : {}),
    ...(input.chart !== undefined ? { chart: input.chart } : {}),
    ...checkRunOptions(input),
  };
}
