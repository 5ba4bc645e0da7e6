import { randomBytes } from "node:crypto";
import { schedulerIdFor } from "../subscriptions/ids.ts";
import { cronFor } from "../subscriptions/schedule.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import { type DeliveryPolicy, type DeliveryQueue, deliveryJobOptions, JOB_NAME } from "./queue.ts";

const PAGE = 500;

/**
 * A one-off job's id suffix. The time alone repeats within a millisecond, and BullMQ silently
 * drops a job whose id it already holds, so two catch-ups added at once became one.
 */
const unique = () => `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;

/** The scheduler writer for one queue; every delivery job gets `policy`'s attempts and backoff. */
/**
 * The one place that writes BullMQ job schedulers: a subscription that is active has exactly one
 * scheduler, `<enterprise>.<team>.<subId>`, with its cron pattern and IANA zone; a paused or deleted
 * one has none. Also enqueues the one-off jobs (test sends, catch-ups).
 */
export function createSchedulerSync(options: {
  queue: DeliveryQueue;
  policy: DeliveryPolicy;
}): SchedulerSync {
  const { queue, policy } = options;
  const opts = deliveryJobOptions(policy);

  /**
   * Upserting a scheduler is not idempotent in BullMQ: it deletes the current run's job if that is
   * still waiting and schedules the next run from now, so a worker start (reconcile) or a repeated
   * sync while a run is due would drop it. Skip the write when the scheduler already says the same
   * and its next run is still pending.
   */
  async function unchanged(id: string, pattern: string, tz: string): Promise<boolean> {
    const current = await queue.getJobScheduler(id);
    const t = current?.template;
    if (!current || current.pattern !== pattern || current.tz !== tz || current.name !== JOB_NAME.scheduled)
      return false;
    if (t?.data?.sub !== id || t.opts?.attempts !== opts.attempts) return false;
    const backoff = t.opts?.backoff;
    if (
      typeof backoff !== "object" ||
      backoff.type !== opts.backoff.type ||
      backoff.delay !== opts.backoff.delay
    )
      return false;
    if (typeof current.next !== "number") return false;
    const state = await queue.getJobState(`repeat:${id}:${current.next}`);
    return state === "delayed" || state === "waiting" || state === "prioritized";
  }

  return {
    async sync(sub) {
      const id = schedulerIdFor(sub.ref, sub.id);
      if (sub.status !== "active") {
        await queue.removeJobScheduler(id);
        return;
      }
      const { pattern, tz } = cronFor(sub.schedule, sub.time, sub.tz);
      if (await unchanged(id, pattern, tz)) return;
      await queue.upsertJobScheduler(
        id,
        { pattern, tz },
        { name: JOB_NAME.scheduled, data: { sub: id }, opts },
      );
    },
    async remove(ref, subId) {
      await queue.removeJobScheduler(schedulerIdFor(ref, subId));
    },
    async enqueue(ref, subId, kind, period) {
      const sub = schedulerIdFor(ref, subId);
      // Unique: a finished job keeps its id for a day, and a second catch-up of one period must still run.
      const jobId = `${kind === "test" ? "send" : "catchup"}-${sub}-${period}-${unique()}`;
      await queue.add(JOB_NAME[kind], { sub, period }, { ...opts, jobId });
      return jobId;
    },
    async notifyOwner(ref, subId, reason) {
      const sub = schedulerIdFor(ref, subId);
      await queue.add(JOB_NAME.notice, { sub, reason }, { ...opts, jobId: `notice-${sub}-${unique()}` });
    },
    async *schedulerIds() {
      for (let start = 0; ; start += PAGE) {
        const page = await queue.getJobSchedulers(start, start + PAGE - 1, true);
        for (const s of page) if (s?.key) yield s.key;
        if (page.length < PAGE) return;
      }
    },
  };
}
