import type { Logger } from "../log.ts";

/**
 * A worker that says it runs and takes no jobs while jobs wait: BullMQ's fetch loop parked on a
 * blocking connection that never comes back (a reconnect refused, a socket half open, a client stuck
 * in its own reconnect state), `isRunning()` true and nothing logged. Redis answers, so /readyz's
 * ping says all is well; only the queue tells. A check every few seconds looks at what the worker
 * does and what waits:
 *   stalled = it runs (not paused, not closing), has a free slot, jobs have waited for `stallMs`
 *             without a break, and it has taken none for `stallMs`.
 * A healthy worker with a free slot takes a waiting job within its blocking read (at most 10 s), so
 * 20 s of this is no slow moment. It stays stalled until it takes a job again (or nothing waits): a
 * rebuild that did not help leaves /livez failing, for the supervisor to restart the process.
 */

/** One look at the worker and its queue. */
export interface Observation {
  at: number;
  /** Runs: not paused, not closing. */
  running: boolean;
  /** Slots free for another job. */
  free: number;
  /** Jobs ready to run (waiting, prioritized); 0 when the queue itself is paused. */
  waiting: number;
  /** When the worker last took a job (or started, or was rebuilt). */
  lastTakenAt: number;
}

/** What the check remembers between looks. */
export interface StallState {
  /** Since when jobs have waited, without a break, while the worker could have taken one. */
  waitingSince: number | null;
  stalled: boolean;
}

export const FRESH: StallState = { waitingSince: null, stalled: false };

/** The next state after one look (pure: the check's whole judgement). */
export function judge(prev: StallState, o: Observation, stallMs: number): StallState {
  const couldTake = o.running && o.free > 0 && o.waiting > 0;
  if (!couldTake) return FRESH;
  // A job taken since the wait began restarts it: the worker moves.
  const since = prev.waitingSince === null || o.lastTakenAt > prev.waitingSince ? o.at : prev.waitingSince;
  const stalled = o.at - since >= stallMs && o.at - o.lastTakenAt >= stallMs;
  return { waitingSince: since, stalled };
}

/** Options of startStallCheck. */
export interface StallCheckOptions {
  /** How long jobs may wait, untaken by a worker with a free slot, before it counts as stalled. */
  stallMs: number;
  /** How often to look [stallMs / 4, at most 5 s]. */
  everyMs?: number;
  /** One look; a look that fails (Redis away: /readyz says so already) is skipped. */
  observe(): Promise<Omit<Observation, "at">>;
  /** Called once per stall episode, after its one log line (rebuild the connections, or exit). */
  onStall(): Promise<void> | void;
  logger: Logger;
  now?: () => number;
}

export interface StallCheck {
  stalled(): boolean;
  stop(): void;
}

export function startStallCheck(o: StallCheckOptions): StallCheck {
  const now = o.now ?? Date.now;
  const everyMs = o.everyMs ?? Math.min(5_000, Math.max(250, o.stallMs / 4));
  let state = FRESH;
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      const seen = { ...(await o.observe()), at: now() };
      const next = judge(state, seen, o.stallMs);
      const began = next.stalled && !state.stalled;
      state = next;
      if (!began) return;
      o.logger.error(
        {
          waiting: seen.waiting,
          waitedSec: Math.round((seen.at - (next.waitingSince ?? seen.at)) / 1000),
          idleSec: Math.round((seen.at - seen.lastTakenAt) / 1000),
          free: seen.free,
        },
        "the delivery worker says it runs but has taken no job while jobs wait; rebuilding its Redis connections",
      );
      await Promise.resolve()
        .then(o.onStall)
        .catch((err: unknown) =>
          o.logger.error(
            { err: { message: (err as Error)?.message } },
            "rebuilding the stalled worker failed",
          ),
        );
    } catch {
      // Redis unreachable for the look itself: not this check's verdict to give.
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), everyMs);
  timer.unref();
  return {
    stalled: () => state.stalled,
    stop: () => clearInterval(timer),
  };
}
