import type { LogCount, LogEntry, LogWindow } from "../jobs/delivery-log.ts";
import type { WatchedState } from "../jobs/queue-state.ts";
import { periodTime } from "../subscriptions/period.ts";

/**
 * What an operator asks first, computed from the delivery log and the queue's readings: the last
 * slot's and the last day's verdicts per workspace, the queue, and the newest failures. Pure: the
 * page, the terminal and `--json` all render this one object.
 */

/** Verdicts of some deliveries. `delivered` is on time; a post is delivered or late. */
export interface Tally {
  delivered: number;
  late: number;
  /** By kind: `condition` (a digest's condition not met) or `alert` (nothing new to say). */
  skipped: Record<string, number>;
  /** By failure code. */
  failed: Record<string, number>;
}

export interface WorkspaceTally extends Tally {
  workspace: string;
}

export interface QueueReading {
  counts: Record<WatchedState, number>;
  oldestWaitingSeconds: number;
}

export interface OpsSummary {
  /** ISO instant of the reading. */
  at: string;
  lateAfterSeconds: number;
  queue: QueueReading & { stalls24h: number };
  /** The latest scheduled minute any delivery recorded a verdict for in the last day; null if none. */
  lastSlot: { period: string; at: string; totals: Tally; workspaces: WorkspaceTally[] } | null;
  day: { totals: Tally; workspaces: WorkspaceTally[]; overflow: number };
  /** Newest first, at most {@link LISTED}. */
  failures: LogEntry[];
  /** Newest first, at most {@link LISTED}. */
  skips: LogEntry[];
}

/** How many failures and skips a summary lists. */
export const LISTED = 50;

export const emptyTally = (): Tally => ({ delivered: 0, late: 0, skipped: {}, failed: {} });

export const sumOf = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

function add(t: Tally, c: LogCount): void {
  if (c.outcome === "delivered") t.delivered += c.n;
  else if (c.outcome === "late") t.late += c.n;
  else {
    const into = c.outcome === "skipped" ? t.skipped : t.failed;
    const code = c.code || "unknown";
    into[code] = (into[code] ?? 0) + c.n;
  }
}

/** Totals and per-workspace tallies, the workspaces with failures first, then by volume. */
export function tallies(counts: readonly LogCount[]): { totals: Tally; workspaces: WorkspaceTally[] } {
  const totals = emptyTally();
  const by = new Map<string, WorkspaceTally>();
  for (const c of counts) {
    add(totals, c);
    const w = by.get(c.workspace) ?? { workspace: c.workspace, ...emptyTally() };
    by.set(c.workspace, w);
    add(w, c);
  }
  const volume = (t: Tally) => t.delivered + t.late + sumOf(t.skipped) + sumOf(t.failed);
  const workspaces = [...by.values()].sort(
    (a, b) =>
      sumOf(b.failed) - sumOf(a.failed) ||
      b.late - a.late ||
      volume(b) - volume(a) ||
      a.workspace.localeCompare(b.workspace),
  );
  return { totals, workspaces };
}

export function summarize(o: {
  log: LogWindow;
  queue: QueueReading;
  now: Date;
  lateAfterMs: number;
}): OpsSummary {
  const { log, now } = o;
  let last: string | null = null;
  let lastAt = -1;
  for (const c of log.counts) {
    const t = periodTime(c.period)?.getTime();
    if (t !== undefined && t <= now.getTime() && t > lastAt) {
      last = c.period;
      lastAt = t;
    }
  }
  return {
    at: now.toISOString(),
    lateAfterSeconds: Math.round(o.lateAfterMs / 1000),
    queue: { ...o.queue, stalls24h: log.stalls },
    lastSlot:
      last === null
        ? null
        : {
            period: last,
            at: new Date(lastAt).toISOString(),
            ...tallies(log.counts.filter((c) => c.period === last)),
          },
    day: { ...tallies(log.counts), overflow: log.overflow },
    failures: log.failures.slice(0, LISTED),
    skips: log.skips.slice(0, LISTED),
  };
}
