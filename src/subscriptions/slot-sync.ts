import type { WorkspaceRef } from "../store/keys.ts";
import type { SchedulerSync } from "./scheduler-sync.ts";
import type { SlotRegistry } from "./slot-registry.ts";
import type { SlotSpec } from "./slots.ts";

/**
 * Keeps a slot's registry and its scheduler in step with a record write that moves a subscription
 * into or out of the slot. The member itself is written with the record (one transaction); around it:
 * before a join, the workspace is registered and the scheduler made sure of (so a crash leaves an
 * extra, harmless registration, never a member nobody fires); after a leave that emptied the
 * workspace's membership, it is unregistered, and the scheduler dropped when no workspace is left,
 * then put back if a join raced in.
 */
export function createSlotSync(o: { registry: SlotRegistry; scheduler: SchedulerSync }) {
  const { registry, scheduler } = o;

  async function afterLeave(slot: SlotSpec, ref: WorkspaceRef, left: number): Promise<void> {
    if (left > 0) return;
    if ((await registry.leave(slot.id, ref)) > 0) return;
    await scheduler.dropSlot(slot.id);
    if ((await registry.size(slot.id)) > 0) await scheduler.ensureSlot(slot);
  }

  return {
    afterLeave,
    /** Runs `write` (which moves the member from `before` to `after`, either may be null) inside the protocol. */
    async move<T extends { left: number }>(
      before: SlotSpec | null,
      after: SlotSpec | null,
      ref: WorkspaceRef,
      write: () => Promise<T>,
    ): Promise<T> {
      const same = before !== null && after !== null && before.id === after.id;
      if (after && !same) {
        await registry.join(after.id, ref);
        await scheduler.ensureSlot(after);
      }
      const result = await write();
      if (after && !same) await registry.join(after.id, ref);
      if (before && !same) await afterLeave(before, ref, result.left);
      return result;
    },
  };
}

export type SlotSyncer = ReturnType<typeof createSlotSync>;
