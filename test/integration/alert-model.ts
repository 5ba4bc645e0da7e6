import type { SnoozeKind } from "../../src/subscriptions/alerts.ts";
import { HOUR } from "./alert-world.ts";

/**
 * A small reference model of one alert's life, written from what the product promises (docs/usage.md,
 * Alerts) rather than from its code: the condition holds or not; a check fires a new episode, clears
 * it, or says once that it still holds when a snooze ran out; a snoozed episode says nothing until
 * its snooze ends (or, for "until it clears", until it clears); acknowledge and snooze change only a
 * firing episode; a pause stops the checks; each person's vote on an episode counts once. Each
 * change told is one reply in the episode's thread; each episode is one message.
 */

export interface ModelSnooze {
  kind: SnoozeKind;
  /** When it ends (ms); absent for "until it clears". */
  until?: number;
  by: string;
  at: number;
}

export interface ModelEpisode {
  /** Its id: the period of the check that fired it. */
  id: string;
  firing: boolean;
  ack?: string;
  snooze?: ModelSnooze;
  /** Replies in its thread. */
  replies: number;
}

export interface AlertModel {
  /** The calendar (ms). */
  now: number;
  /** The condition holds. */
  met: boolean;
  paused: boolean;
  /** Every episode so far, oldest first; the last is the one its message's buttons act on. */
  episodes: ModelEpisode[];
  /** `<episode index>:<user>` → the vote. */
  votes: Map<string, "+" | "-">;
  /** Checks made. */
  checks: number;
}

export const SNOOZE_MS: Record<Exclude<SnoozeKind, "clear">, number> = {
  hour: HOUR,
  day: 24 * HOUR,
  week: 7 * 24 * HOUR,
};

export function newModel(now: number, met: boolean): AlertModel {
  return { now, met, paused: false, episodes: [], votes: new Map(), checks: 0 };
}

export const latest = (m: AlertModel): ModelEpisode | undefined => m.episodes[m.episodes.length - 1];

/** The next check's instant: the top of the hour after now. */
export const nextCheck = (m: AlertModel): number => Math.floor(m.now / HOUR) * HOUR + HOUR;

/** What one check at `at` does (`id`: its period). */
export function checkAt(m: AlertModel, at: number, id: string): void {
  m.now = at;
  m.checks++;
  if (m.paused) return;
  const ep = latest(m);
  if (!ep?.firing) {
    if (m.met) m.episodes.push({ id, firing: true, replies: 0 });
    return;
  }
  const s = ep.snooze;
  if (s) {
    const snoozing = s.until === undefined || s.until > at;
    if (snoozing && (m.met || s.kind !== "clear")) return;
    ep.snooze = undefined;
    ep.replies++;
    if (!m.met) ep.firing = false;
    return;
  }
  if (!m.met) {
    ep.firing = false;
    ep.replies++;
  }
}

/** Acknowledge on the latest episode by `by`: what they are told privately. */
export function acknowledgeBy(m: AlertModel, by: string): string[] {
  const ep = latest(m);
  if (!ep?.firing)
    return ["This alert episode is over (it cleared, or a newer one started): nothing changed."];
  if (ep.ack) return [`Already acknowledged by <@${ep.ack}>.`];
  ep.ack = by;
  ep.replies++;
  return [];
}

/** A snooze of `kind` on the latest episode by `by`. */
export function snoozeBy(m: AlertModel, kind: SnoozeKind, by: string): string[] {
  const ep = latest(m);
  if (!ep?.firing)
    return ["This alert episode is over (it cleared, or a newer one started): nothing changed."];
  const was = ep.snooze;
  if (was && was.kind === kind && was.by === by && m.now - was.at < 10_000)
    return ["Snoozed that way a moment ago already: nothing changed."];
  ep.snooze = { kind, by, at: m.now, ...(kind === "clear" ? {} : { until: m.now + SNOOZE_MS[kind] }) };
  ep.replies++;
  return [];
}

/** Pause from the latest episode's message. */
export function pauseBy(m: AlertModel): void {
  m.paused = true;
  const ep = latest(m);
  if (ep) ep.replies++;
}

/** A vote on episode `index`; the thanks it gets. */
export function voteBy(m: AlertModel, index: number, by: string, useful: boolean): string[] {
  m.votes.set(`${index}:${by}`, useful ? "+" : "-");
  const { up, down } = counts(m);
  return [`Thanks: noted as ${useful ? "useful" : "not useful"}. This alert so far: ${up} 👍 · ${down} 👎`];
}

export function counts(m: AlertModel): { up: number; down: number } {
  const all = [...m.votes.values()];
  return { up: all.filter((v) => v === "+").length, down: all.filter((v) => v === "-").length };
}
