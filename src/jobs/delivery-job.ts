import { DelayedError, type Job } from "bullmq";
import type { ChartOutcome } from "./chart-ready.ts";
import type { DeliveryJobData } from "./queue.ts";

/** A job's return value (tests and operators read it on completed jobs while kept). */
export type DeliveryResult =
  | { status: "delivered"; period: string; ts: string; chart?: ChartOutcome }
  | {
      status: "skipped";
      why:
        | "gone"
        | "paused"
        | "already_done"
        | "lease_lost"
        | "notice_not_needed"
        | "no_slot"
        | "not_a_run_day"
        | "unverifiable"
        | "condition_not_met"
        | "superseded";
      period?: string;
    }
  | { status: "notified" }
  | { status: "fanned_out"; period: string; jobs: number };

export type DeliveryJob = Job<DeliveryJobData, DeliveryResult, string>;

/** True when BullMQ will not try this job again after a failure now. */
export const finalAttempt = (job: DeliveryJob) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/** Puts the job back for `ms` without using an attempt: only this job (this workspace, this channel) waits. */
export async function later(job: DeliveryJob, jobToken: string | undefined, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + Math.max(ms, 1), jobToken);
  throw new DelayedError();
}
