import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { createReconcile, type ReconcileCounts } from "./reconcile.ts";
import type { SchedulerSync } from "./scheduler-sync.ts";
import type { SlotLayout } from "./slot-layout.ts";
import type { SlotRegistry } from "./slot-registry.ts";
import type { SlotSyncer } from "./slot-sync.ts";
import { slotOf } from "./slots.ts";
import type { SubscriptionStore } from "./store.ts";

export type { ReconcileCounts };

/**
 * Whole-workspace and whole-queue upkeep: the uninstall purge and the start-up reconcile (see
 * reconcile.ts) that makes slots and schedulers match the records.
 */
export function createWorkspaceMaintenance(o: {
  store: SubscriptionStore;
  scheduler: SchedulerSync;
  registry: SlotRegistry;
  slots: SlotSyncer;
  logger: Logger;
  clock: () => Date;
  layout: SlotLayout;
}) {
  const { store, slots, logger } = o;
  const reconcile = createReconcile(o);
  return {
    async removeWorkspace(ref: WorkspaceRef): Promise<number> {
      const subs = await store.list(ref);
      for (const sub of subs) await slots.move(slotOf(sub), null, sub.ref, () => store.remove(sub));
      logger.info(
        { teamId: ref.teamId, enterpriseId: ref.enterpriseId, removed: subs.length },
        "workspace subscriptions removed",
      );
      return subs.length;
    },
    reconcile,
  };
}
