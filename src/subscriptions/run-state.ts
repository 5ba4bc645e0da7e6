import { periodOf, periodTime } from "./period.ts";
import type { RunState, Subscription } from "./types.ts";

/**
 * What runs leave for the next one, as short fields of the subscription's hash (each value well under
 * Redis' 64-byte listpack limit, so the record stays compact):
 *   `as` alert state told (`f` firing, `c` clear) · `ap` newest period applied · `aq` `<period>|f|c`,
 *   a transition whose post is not confirmed yet · `hv` `<period sec, base 36>:<values, base 36>` the
 *   condition metric's latest values · `mk`/`mt` the key (day, or `t` for a thread) and ts of the
 *   message later runs edit or reply under.
 * Pure: the worker's scripts write these fields, this module reads and builds them.
 */

/** Fields that only mean something for one condition, range and filter set. */
export const MEASURE_FIELDS = ["as", "ap", "aq", "hv"] as const;
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

/** The run state in a record's hash; undefined when there is none. */
export function runStateOf(h: Record<string, string>): RunState | undefined {
  const runs: RunState = {};
  if (h.as === "f" || h.as === "c") {
    runs.alert = { state: h.as === "f" ? "firing" : "clear" };
    if (h.ap) runs.alert.applied = h.ap;
    const q = /^([^|]+)\|([fc])$/.exec(h.aq ?? "");
    if (q) runs.alert.pending = { period: q[1] as string, post: q[2] === "f" ? "fire" : "clear" };
  }
  const history = historyOf(h.hv);
  if (history) runs.history = history;
  if (h.mk && h.mt) runs.message = { key: h.mk, ts: h.mt };
  return Object.keys(runs).length > 0 ? runs : undefined;
}

/** The `aq` value of a pending transition. */
export const pendingField = (period: string, post: "fire" | "clear") =>
  `${period}|${post === "fire" ? "f" : "c"}`;

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
