import type { SubscribeForm } from "../../../templates/subscribe-modal.ts";
import { isAppError } from "../../errors.ts";
import { SUBSCRIBE_FIELD as F } from "../../ids.ts";
import { assertTimeZone } from "../../insights/dayjs.ts";
import { CHART_STYLES, type ChartStyle } from "../../insights/types.ts";
import { monthDayText, parseMonthDayText } from "../../subscriptions/month-day.ts";
import { checkCronExpression, nextRuns, parseTime } from "../../subscriptions/schedule.ts";
import { type Schedule, type Subscription, WEEKDAYS, type Weekday } from "../../subscriptions/types.ts";
import { isPersonal } from "./personal.ts";

/**
 * The subscribe modal's state, between Slack's payloads and the engine's types: what the inputs
 * hold, what rides in private_metadata, the schedule they describe and its next runs. Pure.
 */

/** What the modal carries between interactions (private_metadata, kept short). */
export interface ModalMeta {
  /** Channel the command was typed in (for the confirmation). */
  origin?: string;
  /** Id of the subscription being edited. */
  edit?: string;
  /** Opened from the Home tab: re-publish it after saving. */
  home?: boolean;
  /** Signature of the schedule whose runs the preview shows. */
  shown?: string;
  /** Days, month day and cron kept while another frequency is chosen, so switching back restores them. */
  days?: Weekday[];
  on?: string;
  cron?: string;
  /** Filters of a modal drawn without its filter menus (lists unavailable), so saving keeps them. */
  assets?: string[];
  scanners?: string[];
  /** A personal digest: delivered by DM to whoever submits, no channel input. */
  personal?: boolean;
}

export function encodeMeta(m: ModalMeta): string {
  return JSON.stringify(m);
}

export function decodeMeta(raw: string | undefined): ModalMeta {
  try {
    const v = JSON.parse(raw || "{}") as ModalMeta;
    return typeof v === "object" && v !== null ? v : {};
  } catch {
    return {};
  }
}

/** A new subscription's defaults: weekly, Monday, 09:00, the creator's zone, last7d, every run posts. */
export function defaultForm(tz: string, channelId?: string, personal = false): SubscribeForm {
  return {
    channelId: personal ? undefined : channelId,
    frequency: "weekly",
    days: ["mon"],
    on: "1",
    cron: "",
    time: "09:00",
    tz,
    range: "last7d",
    assetIds: [],
    scannerIds: [],
    condition: "",
    mode: "digest",
    style: "post",
    ...(personal ? { personal } : {}),
  };
}

/** The modal filled in from a subscription, for Edit. */
export function formOf(sub: Subscription): SubscribeForm {
  const s = sub.schedule;
  return {
    channelId: sub.channelId,
    frequency: s.kind,
    days: s.kind === "weekly" ? s.days : ["mon"],
    on: s.kind === "monthly" || s.kind === "quarterly" ? monthDayText(s.on) : "1",
    cron: s.kind === "cron" ? s.expression : "",
    time: sub.time,
    tz: sub.tz,
    range: sub.range,
    assetIds: sub.assetIds,
    scannerIds: sub.scannerIds,
    condition: sub.condition ?? "",
    mode: sub.mode ?? "digest",
    style: sub.style ?? "post",
    chart: sub.chart ?? "default",
    ...(isPersonal(sub) ? { personal: true } : {}),
  };
}

/** One input's value in Slack's `view.state.values` shape. */
interface StateValue {
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: { value?: string; text?: { text?: string } }[];
  selected_conversation?: string | null;
  selected_time?: string | null;
}

type Values = Record<string, Record<string, StateValue>>;

const field = (values: Values, id: string): StateValue | undefined => values[id]?.[id];
const chosen = (v: StateValue | undefined) => (v?.selected_options ?? []).map((o) => String(o.value ?? ""));

/**
 * The form as the user has it now. Inputs missing from this view (the weekday boxes while "daily"
 * is chosen, filter menus that could not be drawn) keep what `meta` remembered.
 */
export function formFromValues(values: Values, meta: ModalMeta, fallbackTz: string): SubscribeForm {
  const freq = field(values, F.frequency)?.selected_option?.value;
  const mode = field(values, F.mode)?.selected_option?.value;
  const style = field(values, F.style)?.selected_option?.value;
  const chart = field(values, F.chart)?.selected_option?.value as ChartStyle | undefined;
  const daysField = field(values, F.weekday);
  const onField = field(values, F.monthDay);
  const cronField = field(values, F.cron);
  return {
    channelId: meta.personal ? undefined : (field(values, F.channel)?.selected_conversation ?? undefined),
    frequency: FREQUENCIES.find((f) => f === freq) ?? "weekly",
    days: daysField
      ? chosen(daysField).filter((d): d is Weekday => (WEEKDAYS as readonly string[]).includes(d))
      : (meta.days ?? ["mon"]),
    on: onField ? (onField.selected_option?.value ?? "") : (meta.on ?? "1"),
    cron: cronField ? (cronField.value ?? "").trim() : (meta.cron ?? ""),
    time: field(values, F.time)?.selected_time ?? "09:00",
    tz: (field(values, F.timezone)?.value ?? fallbackTz).trim(),
    range: field(values, F.range)?.selected_option?.value ?? "last7d",
    assetIds: values[F.assets] ? chosen(field(values, F.assets)) : (meta.assets ?? []),
    scannerIds: values[F.scanners] ? chosen(field(values, F.scanners)) : (meta.scanners ?? []),
    condition: (field(values, F.condition)?.value ?? "").trim(),
    mode: mode === "alert" ? "alert" : "digest",
    style: style === "update" || style === "thread" ? style : "post",
    chart: chart && CHART_STYLES.includes(chart) ? chart : "default",
    ...(meta.personal ? { personal: true } : {}),
  };
}

/** Names of the chosen filters, from the options' texts (assets first). */
export function labelsFromValues(values: Values): string[] {
  const texts = (v: StateValue | undefined) =>
    (v?.selected_options ?? []).map((o) => String(o.text?.text ?? o.value ?? "")).filter(Boolean);
  return [...texts(field(values, F.assets)), ...texts(field(values, F.scanners))];
}

const FREQUENCIES: readonly SubscribeForm["frequency"][] = [
  "hourly",
  "daily",
  "weekdays",
  "weekly",
  "monthly",
  "quarterly",
  "cron",
];

/** The schedule the form describes (unchecked; an unreadable month day reads as the 1st). */
export function scheduleOf(form: SubscribeForm): Schedule {
  const f = form.frequency;
  if (f === "daily" || f === "hourly" || f === "weekdays") return { kind: f };
  if (f === "cron") return { kind: "cron", expression: form.cron };
  if (f === "monthly" || f === "quarterly")
    return { kind: f, on: parseMonthDayText(form.on ?? "1") ?? { kind: "day", day: 1 } };
  return { kind: "weekly", days: form.days };
}

/** Identifies the schedule the preview was drawn for. */
export function signature(form: SubscribeForm): string {
  const s = scheduleOf(form);
  const what =
    s.kind === "weekly"
      ? s.days.join(",")
      : s.kind === "cron"
        ? s.expression
        : s.kind === "monthly" || s.kind === "quarterly"
          ? monthDayText(s.on)
          : "";
  return [s.kind, what, s.kind === "cron" ? "" : form.time, form.tz].join("|");
}

/** Schedule problems by input block id; empty when the schedule can run. */
export function scheduleErrors(form: SubscribeForm, allowSeconds = false): Record<string, string> {
  const errors: Record<string, string> = {};
  if (form.frequency === "weekly" && form.days.length === 0) errors[F.weekday] = "Choose at least one day.";
  if ((form.frequency === "monthly" || form.frequency === "quarterly") && !parseMonthDayText(form.on ?? "1"))
    errors[F.monthDay] = "Choose the day it runs on.";
  if (form.frequency === "cron") {
    try {
      checkCronExpression(form.cron, { allowSeconds });
    } catch (err) {
      errors[F.cron] = isAppError(err) ? err.message : "Not a cron expression.";
    }
  } else {
    try {
      parseTime(form.time);
    } catch (err) {
      errors[F.time] = isAppError(err) ? err.message : "Use HH:MM.";
    }
  }
  try {
    assertTimeZone(form.tz);
  } catch {
    errors[F.timezone] =
      `"${form.tz.slice(0, 40)}" is not a timezone I know. Use an IANA name such as Europe/Berlin or America/New_York.`;
  }
  return errors;
}

/** The next `n` runs the modal previews, or the first problem in words. */
export function previewOf(form: SubscribeForm, now: Date, n = 5): { runs: Date[] } | { error: string } {
  const problems = Object.values(scheduleErrors(form, true));
  if (problems.length > 0) return { error: problems[0] as string };
  try {
    return { runs: nextRuns(scheduleOf(form), form.time, form.tz, now, n) };
  } catch (err) {
    return { error: isAppError(err) ? err.message : "This schedule has no upcoming runs." };
  }
}
