import type { WorkspaceRef } from "../store/keys.ts";
import type { SlotSpec } from "./slots.ts";

/** A job scheduler as the engine reports it. */
export interface SchedulerInfo {
  id: string;
  pattern?: string;
  tz?: string;
  /** A slot scheduler's gate (see SlotSpec). */
  gate?: string;
  /** Epoch ms of its pending run, if any. */
  next?: number;
}

/**
 * What the subscription rules ask of the schedule engine: one scheduler per time slot while the slot
 * has members, one-off deliveries (test sends, catch-ups) and owner notices. The engine (BullMQ, in
 * jobs/) implements it; the composition root plugs it in, so the subscription rules never depend on
 * the queue.
 */
export interface SchedulerSync {
  /** Makes sure the slot has its scheduler; a no-op (that keeps its pending run) when it already does. True when written. */
  ensureSlot(slot: SlotSpec): Promise<boolean>;
  /** Removes the slot's scheduler and its pending run. */
  dropSlot(slotId: string): Promise<void>;
  /** A one-off delivery of `period`; a repeat of a delivered period is stopped by its claim, not by the job id. */
  enqueue(
    ref: WorkspaceRef,
    subId: string,
    channelId: string,
    kind: "catchUp" | "test",
    period: string,
  ): Promise<string>;
  /** A job that DMs the owner of a paused subscription about `reason` (once per pause). */
  notifyOwner(ref: WorkspaceRef, subId: string, reason: string): Promise<void>;
  /** Every scheduler in the queue (ours and, if any, foreign ones). */
  schedulers(): AsyncGenerator<SchedulerInfo>;
  /** Removes any scheduler by id (strays, and the per-subscription ones older versions made). */
  removeScheduler(id: string): Promise<void>;
}
