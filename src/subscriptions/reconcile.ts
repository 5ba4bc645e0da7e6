import type { Logger } from "../log.ts";
import { parseWorkspaceLabel, type WorkspaceRef, workspaceLabel } from "../store/keys.ts";
import { parseSchedulerId } from "./ids.ts";
import { periodOf } from "./period.ts";
import type { SchedulerSync } from "./scheduler-sync.ts";
import type { SlotLayout } from "./slot-layout.ts";
import type { SlotRegistry } from "./slot-registry.ts";
import type { SlotSyncer } from "./slot-sync.ts";
import { parseSlotSchedulerId, type SlotSpec, slotOf } from "./slots.ts";
import type { SubscriptionStore } from "./store.ts";
import type { Subscription } from "./types.ts";

/** What one reconcile changed. */
export interface ReconcileCounts {
  /** Active subscriptions found (each should be a member of its slot). */
  active: number;
  /** Slots with members, each with one scheduler. */
  slots: number;
  /** Memberships added or removed to match the records. */
  membersHealed: number;
  /** Slot schedulers created or re-created. */
  schedulersEnsured: number;
  /** Slot schedulers of slots without members, removed. */
  schedulersRemoved: number;
  /** Per-subscription schedulers of older versions, replaced by slots. */
  legacyMigrated: number;
  /** Runs those had due and not yet delivered, queued as catch-ups. */
  catchUps: number;
}

/**
 * Makes slots and schedulers match the records (a Redis restart without persistence, a crash between
 * steps, a scheduler removed by hand, an upgrade from per-subscription schedulers). Everything is read
 * first, from every master; a walk that cannot see the whole keyspace throws before any change, so a
 * reconcile never deletes on a partial view. Repairs race safely with live writes: memberships are
 * healed only while the record is as read, and registrations and schedulers go through the same
 * leave protocol as a user's change.
 */
export function createReconcile(o: {
  store: SubscriptionStore;
  scheduler: SchedulerSync;
  registry: SlotRegistry;
  slots: SlotSyncer;
  layout: SlotLayout;
  logger: Logger;
  clock: () => Date;
}) {
  const { store, scheduler, registry, layout, logger } = o;

  return async function reconcile(): Promise<ReconcileCounts> {
    // Read phase: records, stored members, registrations, schedulers.
    const { workspaces, members } = await layout.scan();
    const subs = new Map<string, Subscription[]>();
    for (const ref of workspaces) subs.set(workspaceLabel(ref), await store.list(ref));
    const registered = new Map<string, Set<string>>();
    for await (const slotId of registry.slots())
      registered.set(slotId, new Set((await registry.workspaces(slotId)).map(workspaceLabel)));
    const schedulers = [];
    for await (const s of scheduler.schedulers()) schedulers.push(s);

    const counts: ReconcileCounts = {
      active: 0,
      slots: 0,
      membersHealed: 0,
      schedulersEnsured: 0,
      schedulersRemoved: 0,
      legacyMigrated: 0,
      catchUps: 0,
    };
    const wanted = new Map<string, { spec: SlotSpec; labels: Set<string> }>();
    const byId = new Map<string, Subscription>();
    for (const [label, list] of subs) {
      for (const sub of list) {
        byId.set(`${label}.${sub.id}`, sub);
        const slot = slotOf(sub);
        if (!slot) continue;
        counts.active++;
        const w = wanted.get(slot.id) ?? { spec: slot, labels: new Set<string>() };
        w.labels.add(label);
        wanted.set(slot.id, w);
        const stored = members.get(label)?.slots.get(slot.id);
        if (
          stored?.get(sub.id) !== sub.channelId &&
          (await layout.heal("add", sub.ref, sub.id, slot.id, sub))
        )
          counts.membersHealed++;
      }
    }
    for (const [label, { ref, slots }] of members)
      for (const [slotId, ids] of slots)
        for (const id of ids.keys()) {
          const sub = byId.get(`${label}.${id}`) ?? null;
          if (slotOf(sub ?? ({ status: "paused" } as Subscription))?.id === slotId) continue;
          if (await layout.heal("del", ref, id, slotId, sub)) counts.membersHealed++;
        }

    // Registrations: add the missing, drop the stale (re-added by `leave` if members arrived meanwhile).
    for (const [slotId, w] of wanted)
      for (const label of w.labels) await registry.join(slotId, refOf(subs, label));
    for (const [slotId, labels] of registered)
      for (const label of labels)
        if (!wanted.get(slotId)?.labels.has(label))
          await registry.leave(slotId, members.get(label)?.ref ?? refOf(subs, label));

    // Schedulers: one per wanted slot; none for empty slots; older per-subscription ones replaced.
    const now = o.clock().getTime();
    for (const s of schedulers) {
      const slotId = parseSlotSchedulerId(s.id);
      if (slotId !== null) {
        if (wanted.has(slotId) || !s.pattern || !s.tz) continue;
        await scheduler.dropSlot(slotId);
        counts.schedulersRemoved++;
        if ((await registry.size(slotId)) > 0)
          await scheduler.ensureSlot({
            id: slotId,
            pattern: s.pattern,
            tz: s.tz,
            ...(s.gate !== undefined ? { gate: s.gate } : {}),
          });
        continue;
      }
      const legacy = parseSchedulerId(s.id);
      if (!legacy) continue; // not ours
      const sub = byId.get(`${workspaceLabel(legacy.ref)}.${legacy.subId}`);
      // A run that fell due while no worker ran: the old scheduler would have delivered it late.
      if (sub?.status === "active" && s.next !== undefined && s.next <= now) {
        await scheduler.enqueue(sub.ref, sub.id, sub.channelId, "catchUp", periodOf(s.next));
        counts.catchUps++;
      }
      await scheduler.removeScheduler(s.id);
      counts.legacyMigrated++;
    }
    for (const w of wanted.values()) if (await scheduler.ensureSlot(w.spec)) counts.schedulersEnsured++;
    counts.slots = wanted.size;
    logger.info(counts, "slots and schedulers reconciled");
    return counts;
  };
}

function refOf(subs: Map<string, Subscription[]>, label: string): WorkspaceRef {
  return subs.get(label)?.[0]?.ref ?? parseWorkspaceLabel(label) ?? { teamId: "-" };
}
