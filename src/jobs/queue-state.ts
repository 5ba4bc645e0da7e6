import type { DeliveryQueue } from "./queue.ts";

/** The delivery queue's states an operator watches; `prioritized` holds most fanned-out deliveries. */
export const WATCHED_STATES = ["waiting", "prioritized", "active", "delayed", "failed"] as const;
export type WatchedState = (typeof WATCHED_STATES)[number];

/** How many jobs of the queue are in each watched state. */
export async function queueCounts(
  queue: Pick<DeliveryQueue, "getJobCounts">,
): Promise<Record<WatchedState, number>> {
  const counts = await queue.getJobCounts(...WATCHED_STATES);
  return Object.fromEntries(WATCHED_STATES.map((s) => [s, counts[s] ?? 0])) as Record<WatchedState, number>;
}

/** The few fields of a job that say when it could first run. */
interface Waiting {
  timestamp: number;
  processedOn?: number;
  delay?: number;
}

/**
 * Since when a job has been able to run: a scheduled or delayed job from its due time, one put back
 * (a retry's backoff, pacing) from when it was put back plus its delay. BullMQ keeps the last delay
 * and the last start, not the moment it was put back, so that moment is read as its last start: a
 * lower bound, never an age the job does not have.
 */
export const readySince = (job: Waiting): number => (job.processedOn ?? job.timestamp) + (job.delay ?? 0);

/** How many of the next-in-line prioritized jobs are looked at (the set is ordered by priority, not age). */
const PRIORITIZED_SAMPLE = 50;

/**
 * Seconds the oldest job able to run has waited (0 when none waits). The waiting list's oldest job,
 * and the oldest of the next {@link PRIORITIZED_SAMPLE} prioritized ones: fanned-out deliveries are
 * ordered by their rank within their workspace, so one far down a big slot may be older than any
 * of those. A lower bound, then, and a cheap one (two range reads).
 */
export async function oldestWaitingSeconds(
  queue: Pick<DeliveryQueue, "getJobs">,
  now: number,
): Promise<number> {
  const [waiting, prioritized] = await Promise.all([
    queue.getJobs(["waiting"], 0, 0, true),
    queue.getJobs(["prioritized"], 0, PRIORITIZED_SAMPLE - 1, true),
  ]);
  let oldest = now;
  for (const job of [...waiting, ...prioritized])
    if (job) oldest = Math.min(oldest, readySince(job as Waiting));
  return Math.max(0, (now - oldest) / 1000);
}
