import { CHART_STYLES, type ChartStyle } from "../insights/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { monthDayText, parseMonthDayText } from "./month-day.ts";
import { runStateOf } from "./run-state.ts";
import { sortDays } from "./schedule.ts";
import type { LastDelivery, Schedule, Subscription, Weekday } from "./types.ts";

/**
 * A subscription as a flat Redis hash. Lists are joined with "\n" (ids and names never hold one);
 * absent optionals are absent fields, and the last delivery is kept as short fields of its own rather
 * than one JSON value, so every value stays under Redis' 64-byte listpack limit and a record stays a
 * compact listpack (see the memory test). The id and workspace live in the key, not in the hash.
 */
export type SubscriptionHash = Record<string, string>;

const SEP = "\n";
const list = (v: string | undefined) => (v ? v.split(SEP) : []);

function scheduleFields(s: Schedule): SubscriptionHash {
  if (s.kind === "weekly") return { kind: "weekly", days: sortDays(s.days).join(",") };
  if (s.kind === "cron") return { kind: "cron", cron: s.expression };
  // The day as its canonical text (`1`, `first-mon`, `last-workday`): one short field.
  if (s.kind === "monthly" || s.kind === "quarterly") return { kind: s.kind, on: monthDayText(s.on) };
  return { kind: s.kind };
}

function scheduleOf(h: SubscriptionHash): Schedule {
  if (h.kind === "weekly") return { kind: "weekly", days: list(h.days?.replace(/,/g, SEP)) as Weekday[] };
  if (h.kind === "cron") return { kind: "cron", expression: h.cron ?? "" };
  if (h.kind === "hourly" || h.kind === "weekdays") return { kind: h.kind };
  if (h.kind === "monthly" || h.kind === "quarterly")
    return { kind: h.kind, on: parseMonthDayText(h.on ?? "") ?? { kind: "day", day: 1 } };
  return { kind: "daily" };
}

/** The hash fields of the parts of a record a write sets (undefined optionals are left out). */
export function toHash(sub: Partial<Omit<Subscription, "id" | "ref">>): SubscriptionHash {
  const h: SubscriptionHash = {};
  if (sub.channelId !== undefined) h.channel = sub.channelId;
  if (sub.ownerId !== undefined) h.owner = sub.ownerId;
  if (sub.schedule !== undefined) Object.assign(h, scheduleFields(sub.schedule));
  if (sub.time !== undefined) h.time = sub.time;
  if (sub.tz !== undefined) h.tz = sub.tz;
  if (sub.range !== undefined) h.range = sub.range;
  if (sub.assetIds !== undefined) h.assets = sub.assetIds.join(SEP);
  if (sub.assetGroups !== undefined) h.groups = sub.assetGroups.join(SEP);
  if (sub.scannerIds !== undefined) h.scanners = sub.scannerIds.join(SEP);
  if (sub.filterLabels !== undefined) h.labels = sub.filterLabels.join(SEP);
  // Absent = on, so the common record carries no field for it; "1" is written only to undo a "0".
  if (sub.drivers !== undefined) h.drivers = sub.drivers ? "1" : "0";
  // Absent = the workspace's chart setting.
  if (sub.chart !== undefined) h.ch = sub.chart;
  // Absent = every run posts, a digest, as a new message: what records from before these options mean.
  if (sub.condition !== undefined) h.cond = sub.condition;
  if (sub.mode !== undefined) h.mode = sub.mode;
  if (sub.style !== undefined) h.ds = sub.style;
  if (sub.status !== undefined) h.status = sub.status;
  if (sub.pausedReason !== undefined) h.pausedReason = sub.pausedReason;
  if (sub.pausedAt !== undefined) h.pausedAt = sub.pausedAt;
  if (sub.createdAt !== undefined) h.created = sub.createdAt;
  if (sub.lastDelivery !== undefined) Object.assign(h, lastFields(sub.lastDelivery));
  if (sub.ownerNotifiedReason !== undefined) h.notified = sub.ownerNotifiedReason;
  return h;
}

/** The hash fields of a last delivery: period, epoch ms, d/f, and the ts or the failure reason. */
export function lastFields(last: LastDelivery): SubscriptionHash {
  const h: SubscriptionHash = {
    lp: last.period,
    la: String(Date.parse(last.at)),
    // d(elivered), f(ailed), s(kipped).
    lo: last.outcome[0] as string,
  };
  if (last.messageTs !== undefined) h.lt = last.messageTs;
  if (last.reason !== undefined) h.lr = keptReason(last.reason);
  if (last.chart !== undefined) h.lc = last.chart.slice(0, 30);
  return h;
}

/** The longest reason a last delivery keeps: a sentence people read on App Home and in status. */
export const REASON_CHARS = 160;

/** A reason as kept: whole when it fits, else cut at a word with an ellipsis (never mid-word). */
export function keptReason(reason: string): string {
  if (reason.length <= REASON_CHARS) return reason;
  const cut = reason.slice(0, REASON_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > REASON_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** Every field a last delivery may have written (older versions kept it as JSON in `last`). */
export const LAST_FIELDS = ["last", "lp", "la", "lo", "lt", "lr", "lc"] as const;

/** Fields a schedule change must clear (the old kind's). */
export const SCHEDULE_FIELDS = ["days", "cron", "on"] as const;

function lastOf(h: SubscriptionHash): LastDelivery | undefined {
  if (h.lp && h.la && h.lo) {
    const last: LastDelivery = {
      period: h.lp,
      at: new Date(Number(h.la)).toISOString(),
      outcome: h.lo === "d" ? "delivered" : h.lo === "s" ? "skipped" : "failed",
    };
    if (h.lt) last.messageTs = h.lt;
    if (h.lr) last.reason = h.lr;
    if (h.lc) last.chart = h.lc;
    return last;
  }
  const raw = h.last;
  if (!raw) return undefined;
  try {
    const v = JSON.parse(raw) as LastDelivery;
    return typeof v === "object" && v !== null && typeof v.period === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A record from its hash; null for a missing or unreadable one (an empty hash means "gone"). */
export function fromHash(id: string, ref: WorkspaceRef, h: SubscriptionHash): Subscription | null {
  if (!h.channel || !h.kind || !h.tz) return null;
  const sub: Subscription = {
    id,
    ref,
    channelId: h.channel,
    ownerId: h.owner ?? "",
    schedule: scheduleOf(h),
    time: h.time ?? "09:00",
    tz: h.tz,
    range: h.range ?? "last7d",
    assetIds: list(h.assets),
    scannerIds: list(h.scanners),
    filterLabels: list(h.labels),
    status: h.status === "paused" ? "paused" : "active",
    createdAt: h.created ?? "",
  };
  // Records from before the option have no field: they read as on, their owners' default.
  if (h.drivers === "0") sub.drivers = false;
  else if (h.drivers === "1") sub.drivers = true;
  if (CHART_STYLES.includes(h.ch as ChartStyle)) sub.chart = h.ch as ChartStyle;
  if (h.groups) sub.assetGroups = list(h.groups);
  if (h.cond) sub.condition = h.cond;
  if (h.mode === "alert") sub.mode = "alert";
  if (h.ds === "update" || h.ds === "thread") sub.style = h.ds;
  const runs = runStateOf(h);
  if (runs) sub.runs = runs;
  if (h.pausedReason) sub.pausedReason = h.pausedReason;
  if (h.pausedAt) sub.pausedAt = h.pausedAt;
  const last = lastOf(h);
  if (last) sub.lastDelivery = last;
  if (h.notified) sub.ownerNotifiedReason = h.notified;
  return sub;
}
