import type { WorkspaceRef } from "../store/keys.ts";
import type { Subscription } from "./types.ts";

/**
 * What a subscription change asks of the schedule engine: an active subscription is scheduled, a
 * paused or deleted one is not; one-off deliveries (test sends, catch-ups) and owner notices are
 * queued. The engine (BullMQ, in jobs/) implements it; the composition root plugs it in, so the
 * subscription rules never depend on the queue.
 */
export interface SchedulerSync {
  /** Active → upsert the scheduler; paused → remove it. */
  sync(sub: Subscription): Promise<void>;
  remove(ref: WorkspaceRef, subId: string): Promise<void>;
  /** A one-off delivery of `period`; a repeat of a delivered period is stopped by its claim, not by the job id. */
  enqueue(ref: WorkspaceRef, subId: string, kind: "catchUp" | "test", period: string): Promise<string>;
  /** A job that DMs the owner of a paused subscription about `reason` (once per pause). */
  notifyOwner(ref: WorkspaceRef, subId: string, reason: string): Promise<void>;
  /** Every scheduler id in the queue (ours and, if any, foreign ones). */
  schedulerIds(): AsyncGenerator<string>;
}
