import type { AlertPost, Snooze, SnoozeKind } from "./alerts.ts";
import { periodOf, periodTime } from "./period.ts";
import type { RunState, Subscription } from "./types.ts";

/**
 * What runs leave for the next one, as short fields of the subscription's hash (each value well under
 * Redis' 64-byte listpack limit, so the record stays compact):
 *   `as` alert state told (`f` firing, `c` clear) · `ap` newest period applied · `aq` `<period>|f|c|r`,
 *   a transition (fire, clear, resume after a snooze) whose post is not confirmed yet · `hv`
 *   `<period sec, base 36>:<values, base 36>` the condition metric's latest values · `mk`/`mt` the key
 *   (day, or `t` for a thread) and ts of the message later runs edit or reply under.
 * An alert's episode: `ep` the period that fired it · `em` its message's ts · `ek` `<user>|<sec36>`
 *   acknowledged · `ez` `<h|d|w|c>|<until sec36>|<user>|<sec36>` snoozed (an hour, a day, a week, until
 *   it clears) · `fu`/`fd` how often people found the alert's messages useful or not.
 * Pure: the worker's scripts write these fields, this module reads and builds them.
 */

/** Fields that only mean something for one condition, range and filter set. */
export const MEASURE_FIELDS = ["as", "ap", "aq", "hv", "ep", "em", "ek", "ez"] as const;
/** Fields that only mean something for one conversation and style. */
export const MESSAGE_FIELDS = ["mk", "mt"] as const;

/** Most values kept: a `rose N` condition needs N earlier ones, and N is at most 12. */
export const MAX_HISTORY = 12;

const periodSec = (period: string) => {
  const at = periodTime(period);
  return at ? Math.floor(at.getTime() / 1000) : null;
};
const periodOfSec = (sec: number) => periodOf(sec * 1000);

/** The `hv` field's value; null when the period is not a scheduled one (test sends keep no history). */
export function historyField(history: { period: string; values: number[] }): string | null {
  const sec = periodSec(history.period);
  if (sec === null) return null;
  const values = history.values.slice(-MAX_HISTORY).map((v) => Math.max(0, Math.round(v)).toString(36));
  return `${sec.toString(36)}:${values.join(",")}`;
}

function historyOf(raw: string | undefined): RunState["history"] {
  const m = /^([0-9a-z]+):([0-9a-z,]*)$/.exec(raw ?? "");
  if (!m) return undefined;
  const values = (m[2] as string)
    .split(",")
    .filter(Boolean)
    .map((v) => Number.parseInt(v, 36));
  if (values.some((v) => !Number.isFinite(v))) return undefined;
  return { period: periodOfSec(Number.parseInt(m[1] as string, 36)), values };
}

const POSTS: Record<string, AlertPost> = { f: "fire", c: "clear", r: "resume" };
const KINDS: Record<string, SnoozeKind> = { h: "hour", d: "day", w: "week", c: "clear" };
const iso = (sec36: string) => new Date(Number.parseInt(sec36, 36) * 1000).toISOString();
const sec36 = (at: Date) => Math.floor(at.getTime() / 1000).toString(36);

/** The `ek` value: who acknowledged, when. */
export const ackField = (by: string, at: Date) => `${by}|${sec36(at)}`;

/** The `ez` value of a snooze of `kind` by `by` at `at` (`until` undefined: until it clears). */
export function snoozeField(kind: SnoozeKind, until: Date | undefined, by: string, at: Date): string {
  return `${kind[0]}|${until ? sec36(until) : ""}|${by}|${sec36(at)}`;
}

function snoozeOf(raw: string | undefined): Snooze | undefined {
  const m = /^([hdwc])\|([0-9a-z]*)\|([A-Z0-9]{1,32})\|([0-9a-z]+)$/.exec(raw ?? "");
  if (!m) return undefined;
  const snooze: Snooze = {
    kind: KINDS[m[1] as string] as SnoozeKind,
    by: m[3] as string,
    at: iso(m[4] as string),
  };
  if (m[2]) snooze.until = iso(m[2]);
  return snooze;
}

/** The run state in a record's hash; undefined when there is none. */
export function runStateOf(h: Record<string, string>): RunState | undefined {
  const runs: RunState = {};
  // A first check applied before anything was told (its fire still pending) is alert state too: read
  // without it, the check's retry would find no pending transition and never tell it.
  if (h.as === "f" || h.as === "c" || h.ap || h.aq) {
    runs.alert = { state: h.as === "f" ? "firing" : "clear" };
    if (h.as !== "f" && h.as !== "c") runs.alert.untold = true;
    if (h.ap) runs.alert.applied = h.ap;
    const q = /^([^|]+)\|([fcr])$/.exec(h.aq ?? "");
    if (q) runs.alert.pending = { period: q[1] as string, post: POSTS[q[2] as string] as AlertPost };
    if (h.ep) runs.alert.episode = { id: h.ep, ...(h.em ? { ts: h.em } : {}) };
    const ack = /^([A-Z0-9]{1,32})\|([0-9a-z]+)$/.exec(h.ek ?? "");
    if (ack) runs.alert.acknowledged = { by: ack[1] as string, at: iso(ack[2] as string) };
    const snooze = snoozeOf(h.ez);
    if (snooze) runs.alert.snoozed = snooze;
  }
  const useful = Number(h.fu ?? 0);
  const notUseful = Number(h.fd ?? 0);
  if (useful > 0 || notUseful > 0)
    runs.feedback = { useful: Math.max(0, useful || 0), notUseful: Math.max(0, notUseful || 0) };
  const history = historyOf(h.hv);
  if (history) runs.history = history;
  if (h.mk && h.mt) runs.message = { key: h.mk, ts: h.mt };
  return Object.keys(runs).length > 0 ? runs : undefined;
}

/** The `aq` value of a pending transition. */
export const pendingField = (period: string, post: AlertPost) => `${period}|${post[0]}`;

/** The `as` value of an alert state. */
export const alertField = (state: "firing" | "clear") => (state === "firing" ? "f" : "c");

/**
 * The history after a run of `period` measured `value`: appended when the period is newer than the
 * last one kept (a late retry of an older run adds nothing), cut to the `keep` newest.
 */
export function nextHistory(
  sub: Pick<Subscription, "runs">,
  period: string,
  value: number,
  keep: number,
): { period: string; values: number[] } | null {
  if (periodSec(period) === null) return null;
  const h = sub.runs?.history;
  if (h && h.period >= period) return null;
  return { period, values: [...(h?.values ?? []), value].slice(-Math.min(keep, MAX_HISTORY)) };
}
