/**
 * Alert subscriptions check a condition on a short schedule and tell each episode in one message:
 * posted when the condition starts to hold, edited in place as people acknowledge or snooze it and
 * when it clears, with every change also a reply in its thread. Pure: the state (kept per
 * subscription in Redis) and the verdict in, the next state and what to post out.
 */
export type AlertState = "firing" | "clear";

/** What a check tells: a new episode, its end, or that a snooze ended while it still holds. */
export type AlertPost = "fire" | "clear" | "resume";

export interface AlertStep {
  state: AlertState;
  /** What to post for this check, or nothing. */
  post: AlertPost | null;
  /** Why a check that would have told something says nothing: the episode is snoozed. */
  snoozed?: string;
}

/** How long a snooze lasts: an hour, a day, a week, or until the condition clears. */
export type SnoozeKind = "hour" | "day" | "week" | "clear";
export const SNOOZE_KINDS: readonly SnoozeKind[] = ["hour", "day", "week", "clear"];
const SNOOZE_MS: Record<Exclude<SnoozeKind, "clear">, number> = {
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
};

export interface Snooze {
  kind: SnoozeKind;
  /** ISO instant the snooze ends; absent for "until it clears". */
  until?: string;
  by: string;
  at: string;
}

/** The end of a snooze of `kind` pressed at `at` (undefined: until the condition clears). */
export function snoozeUntil(kind: SnoozeKind, at: Date): Date | undefined {
  return kind === "clear" ? undefined : new Date(at.getTime() + SNOOZE_MS[kind]);
}

/** Whether `snooze` still silences a check made at `at`. */
export function snoozing(snooze: Snooze | undefined, at: Date): boolean {
  if (!snooze) return false;
  return snooze.until === undefined || Date.parse(snooze.until) > at.getTime();
}

const untilWords = (s: Snooze) =>
  s.until === undefined ? "until it clears" : `until ${s.until.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The next state of an alert after one check made at `at`. A snoozed episode posts nothing until its
 * snooze ends; then it behaves as if just checked: it clears, or says once that it still holds.
 *
 * @example alertStep(undefined, true)  // { state: "firing", post: "fire" }
 * @example alertStep("firing", true)   // { state: "firing", post: null }
 * @example alertStep("firing", false)  // { state: "clear", post: "clear" }
 */
export function alertStep(
  previous: AlertState | undefined,
  met: boolean,
  snooze?: Snooze,
  at: Date = new Date(0),
): AlertStep {
  if (previous === "firing" && snooze) {
    if (snoozing(snooze, at) && (met || snooze.kind !== "clear"))
      return { state: "firing", post: null, snoozed: `snoozed ${untilWords(snooze)}` };
    return met ? { state: "firing", post: "resume" } : { state: "clear", post: "clear" };
  }
  if (met) return { state: "firing", post: previous === "firing" ? null : "fire" };
  // A first check that is already clear has nothing to clear: no post.
  return { state: "clear", post: previous === "firing" ? "clear" : null };
}

/** Who did something to an episode, and when (ISO). */
export interface Act {
  by: string;
  at: string;
}

/** One episode as its message shows it. */
export interface EpisodeView {
  /** The period of the check that fired it (its id). */
  id: string;
  /** ISO instant it fired. */
  firedAt: string;
  state: AlertState;
  acknowledged?: Act;
  snoozed?: Snooze;
  /** Set once it cleared: when, and the check's verdict then. */
  cleared?: { at: string; reason: string };
  /** The alert itself is paused (by a button, a command or a delivery failure). */
  paused?: { at: string; reason: string };
}

/** The ways people change an episode from its message. */
export type EpisodeAction = "acknowledge" | "snooze" | "pause";

/**
 * What an episode's message offers now: Acknowledge while firing and not yet acknowledged; Snooze
 * while firing; Why? always; Pause while the alert runs.
 */
export function episodeControls(e: EpisodeView): { acknowledge: boolean; snooze: boolean; pause: boolean } {
  const firing = e.state === "firing" && !e.paused;
  return { acknowledge: firing && !e.acknowledged, snooze: firing, pause: !e.paused };
}
