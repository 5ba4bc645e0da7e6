import type { Logger } from "../log.ts";
import { type WorkspaceRef, workspaceIds } from "../store/keys.ts";
import { parseSchedulerId, schedulerIdFor } from "./ids.ts";
import type { SchedulerSync } from "./scheduler-sync.ts";
import type { SubscriptionStore } from "./store.ts";

/**
 * Whole-workspace and whole-queue upkeep: the uninstall purge and the start-up reconcile that makes
 * schedulers match records (a Redis restart without persistence, a crash between a record write and
 * its scheduler write, or a scheduler removed by hand all heal here).
 */
export function createWorkspaceMaintenance(o: {
  store: SubscriptionStore;
  scheduler: SchedulerSync;
  logger: Logger;
}) {
  const { store, scheduler, logger } = o;

  async function allSchedulerIds(): Promise<string[]> {
    // Collected first: removing while paging would shift the pages.
    const ids: string[] = [];
    for await (const id of scheduler.schedulerIds()) ids.push(id);
    return ids;
  }

  return {
    async removeWorkspace(ref: WorkspaceRef): Promise<number> {
      const subs = await store.list(ref);
      for (const sub of subs) {
        await scheduler.remove(sub.ref, sub.id);
        await store.remove(sub);
      }
      // Schedulers whose record was already gone (an earlier, interrupted purge) go too.
      const ids = workspaceIds(ref);
      const prefix = `${ids.enterprise}.${ids.team}.`;
      for (const id of await allSchedulerIds()) {
        const parsed = id.startsWith(prefix) ? parseSchedulerId(id) : null;
        if (parsed) await scheduler.remove(parsed.ref, parsed.subId);
      }
      logger.info(
        { teamId: ref.teamId, enterpriseId: ref.enterpriseId, removed: subs.length },
        "workspace subscriptions removed",
      );
      return subs.length;
    },

    async reconcile(): Promise<{ upserted: number; removed: number }> {
      const existing = await allSchedulerIds();
      const wanted = new Set<string>();
      let upserted = 0;
      for await (const ref of store.workspaces()) {
        for (const sub of await store.list(ref)) {
          if (sub.status !== "active") continue;
          wanted.add(schedulerIdFor(sub.ref, sub.id));
          await scheduler.sync(sub);
          upserted++;
        }
      }
      let removed = 0;
      for (const id of existing) {
        const parsed = parseSchedulerId(id);
        // Foreign schedulers (ids we did not make) are left alone.
        if (!parsed || wanted.has(id)) continue;
        await scheduler.remove(parsed.ref, parsed.subId);
        removed++;
      }
      logger.info({ upserted, removed }, "schedulers reconciled");
      return { upserted, removed };
    },
  };
}
