import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { parseSchedulerId } from "../subscriptions/ids.ts";
import { fireTimeOfJob, periodOf } from "../subscriptions/period.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { createFinish } from "./begin.ts";
import type { DeliveryJob } from "./delivery-job.ts";
import { failureNotice } from "./notices.ts";
import { type DeliveryQueue, JOB_NAME } from "./queue.ts";

/**
 * BullMQ's verdict on a job whose lock ran out more than `maxStalledCount` times (its workers were
 * killed or starved): the next worker to take it fails it without running it, with this message.
 */
export const STALLED_OUT = "job stalled more than allowable limit";

/** The reason recorded on a delivery given up after stalling out too often. */
export const STALLED_REASON = "stalled";

/** How many times a stalled-out delivery is added again before it is recorded as failed [3]. */
export const DEFAULT_STALL_READDS = 3;

/** What became of a job BullMQ failed for stalling. */
export type StallOutcome =
  | { kind: "readded"; jobId: string; stalls: number }
  /** Recorded as failed; `notice` says whether the channel was told (not when a post may be out). */
  | { kind: "gave_up"; notice: boolean }
  /** Nothing to do: its period already has a verdict, its subscription is gone, or it delivers nothing. */
  | { kind: "ignored"; why: "already_done" | "gone" | "not_a_delivery" };

export interface StallRecoveryDeps {
  queue: Pick<DeliveryQueue, "add">;
  store: Pick<SubscriptionStore, "get">;
  finish: ReturnType<typeof createFinish>;
  /** Posts the failure notice (chat.postMessage with the workspace's bot token). */
  post(ref: WorkspaceRef, channel: string, message: { text: string }): Promise<unknown>;
  logger: Logger;
  clock: () => Date;
  /** Re-adds per delivery before it is given up [{@link DEFAULT_STALL_READDS}]. */
  maxReadds?: number;
}

const READD_SUFFIX = /\.stall\d+$/;

/** Whether BullMQ failed this job unrun for stalling more than its limit. */
export const stalledOut = (job: DeliveryJob | undefined, err: Error) =>
  err.message === STALLED_OUT || job?.deferredFailure === STALLED_OUT;

/**
 * Recovery of a delivery that BullMQ failed for stalling: it never ran to the end, and nothing else
 * would record or retry it. It is added again as a new job (the failed one keeps its id while kept),
 * `.stall<n>` after the original id, carrying the count; the new run goes through the claim as any
 * retry does, so a period already delivered is skipped and a post that may be out is looked for
 * before posting. Past `maxReadds` the period is recorded as failed (`stalled`) where people look
 * (/insights subscriptions, App Home), with the failure notice in the channel unless a post may
 * already be there. Slot jobs come from schedulers, which BullMQ never fails for stalling.
 */
export function createStallRecovery(deps: StallRecoveryDeps) {
  const maxReadds = deps.maxReadds ?? DEFAULT_STALL_READDS;

  async function giveUp(job: DeliveryJob, ref: WorkspaceRef, subId: string, period: string) {
    const sub = await deps.store.get(ref, subId);
    if (!sub) return { kind: "ignored", why: "gone" } as const;
    const at = deps.clock().toISOString();
    const wrote = await deps.finish(
      sub,
      period,
      { period, at, outcome: "failed", reason: STALLED_REASON },
      {},
      { unlessDone: true },
    );
    if (wrote === "kept") return { kind: "ignored", why: "already_done" } as const;
    const stalls = job.data.stalls ?? 0;
    deps.logger.error(
      { jobId: job.id, subId, period, readds: stalls, postMayBeOut: wrote === "over_post" },
      "a delivery kept stalling (its workers died or were starved); recorded as failed",
    );
    // A post noted by one of the stalled runs may be in the channel: no notice saying it is not.
    if (wrote === "over_post") return { kind: "gave_up", notice: false } as const;
    try {
      await deps.post(ref, sub.channelId, failureNotice(sub, period, STALLED_REASON));
      return { kind: "gave_up", notice: true } as const;
    } catch (err) {
      deps.logger.warn({ err, subId }, "could not post the failure notice");
      return { kind: "gave_up", notice: false } as const;
    }
  }

  return async function recoverStalled(job: DeliveryJob): Promise<StallOutcome> {
    const ids = parseSchedulerId(job.data.sub ?? "");
    const isNotice = job.name === JOB_NAME.notice;
    const fire = job.data.period ? null : fireTimeOfJob(job);
    const period = job.data.period ?? (fire === null ? null : periodOf(fire));
    if (job.name === JOB_NAME.slot || !ids || (!period && !isNotice)) {
      deps.logger.error({ jobId: job.id, name: job.name }, "a job stalled out and was not run");
      return { kind: "ignored", why: "not_a_delivery" };
    }
    const stalls = job.data.stalls ?? 0;
    if (stalls >= maxReadds) {
      if (isNotice || !period) {
        deps.logger.error({ jobId: job.id, subId: ids.subId }, "an owner notice kept stalling; not sent");
        return { kind: "gave_up", notice: false };
      }
      return giveUp(job, ids.ref, ids.subId, period);
    }
    const jobId = `${String(job.id).replace(READD_SUFFIX, "")}.stall${stalls + 1}`;
    // The period goes into the data: a job of an older per-subscription scheduler had it as its fire time.
    const data = { ...job.data, ...(period ? { period } : {}), stalls: stalls + 1 };
    const { attempts, backoff, priority } = job.opts;
    await deps.queue.add(job.name, data, { jobId, attempts, backoff, ...(priority ? { priority } : {}) });
    deps.logger.warn(
      { jobId: job.id, readded: jobId, subId: ids.subId, period },
      "a delivery stalled out (its workers died or were starved); added again",
    );
    return { kind: "readded", jobId, stalls: stalls + 1 };
  };
}
