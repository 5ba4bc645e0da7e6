import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { periodOf } from "../subscriptions/period.ts";
import { firesAt } from "../subscriptions/schedule.ts";
import type { SlotRegistry } from "../subscriptions/slot-registry.ts";
import { parseSlotSchedulerId } from "../subscriptions/slots.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { DeliveryQueue } from "./queue.ts";
import type { SlotWarmMarks } from "./slot-warm-marks.ts";

/**
 * Time slots about to fire, warmed before they do. A slot's fan-out warms its members' drivers as it
 * deals them, and the first deliveries of every account then wait for their account's computation
 * (the lists, the slices, the history): in a storm that is its first second or more. The
 * lookahead reads the job schedulers in the order they fire, and for a slot due within `leadMs` walks
 * its members as the fan-out will and hands each page to the same warm-up, with the fire's period, so
 * the computations are done (or under way) when the deliveries ask. The fan-out's own warm-up then
 * finds them shared.
 *
 * One process per fire walks a slot (`marks.claim`, in Redis: every worker runs a lookahead), and notes when
 * it has handed every member over (`marks.walked`): the fan-out then hands none over again. Members added
 * after the walk compute their drivers with their delivery; a walk that fails part-way leaves the
 * fan-out to warm the slot as before. Nothing here is in a delivery's way: a failure
 * is logged and the fire goes on as it would have.
 */

export interface SlotLookaheadDeps {
  queue: Pick<DeliveryQueue, "getJobSchedulers">;
  registry: Pick<SlotRegistry, "workspaces">;
  store: Pick<SubscriptionStore, "slotPage">;
  /** The slot warm-up the fan-out uses (slot-warm.ts). */
  warm: (ref: WorkspaceRef, members: [string, string][], period: string) => void;
  /** Who walks each fire (`claim`), and the note that the walk handed every member over (`walked`). */
  marks: Pick<SlotWarmMarks, "claim" | "walked">;
  /** How long before a fire its slot is warmed. */
  leadMs: number;
  logger: Logger;
  clock?: () => Date;
  /** Schedulers read per page, soonest first [20]. */
  pageSize?: number;
  /**
   * Pages read per tick at most [10]: schedulers already due (a backlog after workers were down) come
   * first and are skipped; a tick does not read through thousands of them every second.
   */
  maxPages?: number;
  /** Members read per workspace per page [100]. */
  memberPage?: number;
}

export interface SlotLookahead {
  /** Warms the slots due within the lead that nobody warmed yet; resolves with their ids. */
  tick(): Promise<string[]>;
  /** Ticks every `everyMs` until stopped (a tick never overlaps the one before). */
  start(everyMs: number): void;
  /** Stops ticking and waits for a tick under way. */
  stop(): Promise<void>;
}

export function createSlotLookahead(deps: SlotLookaheadDeps): SlotLookahead {
  const clock = deps.clock ?? (() => new Date());
  const pageSize = Math.max(1, deps.pageSize ?? 20);

  /** The slots whose next fire is after now and within the lead, with that fire. */
  async function due(now: number): Promise<{ slotId: string; fire: number }[]> {
    const out: { slotId: string; fire: number }[] = [];
    const end = pageSize * Math.max(1, deps.maxPages ?? 10);
    for (let start = 0; start < end; start += pageSize) {
      const page = await deps.queue.getJobSchedulers(start, start + pageSize - 1, true);
      for (const s of page) {
        const next = typeof s.next === "number" ? s.next : null;
        if (next === null || next <= now) continue;
        if (next > now + deps.leadMs) return out;
        const slotId = s.key ? parseSlotSchedulerId(s.key) : null;
        // A gated slot's fire that is not a run day fans nothing out: nothing to warm.
        const gate = s.template?.data?.gate;
        if (typeof gate === "string" && !firesAt(gate, s.tz ?? "UTC", new Date(next))) continue;
        if (slotId) out.push({ slotId, fire: next });
      }
      if (page.length < pageSize) return out;
    }
    return out;
  }

  async function walk(slotId: string, period: string): Promise<void> {
    for (const ref of await deps.registry.workspaces(slotId)) {
      let cursor = "0";
      do {
        const page = await deps.store.slotPage(ref, slotId, cursor, deps.memberPage ?? 100);
        deps.warm(ref, page.members, period);
        cursor = page.cursor;
      } while (cursor !== "0");
    }
  }

  async function tick(): Promise<string[]> {
    const now = clock().getTime();
    const warmed: string[] = [];
    for (const { slotId, fire } of await due(now)) {
      const period = periodOf(fire);
      // Held past the fire, so a process that ticks late does not walk it again.
      const ttlMs = fire - now + deps.leadMs;
      if (!(await deps.marks.claim(slotId, period, ttlMs))) continue;
      await walk(slotId, period);
      await deps.marks.walked(slotId, period, ttlMs);
      warmed.push(slotId);
    }
    if (warmed.length > 0) deps.logger.debug({ slots: warmed }, "slots warmed ahead of their fire");
    return warmed;
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  return {
    tick,
    start(everyMs) {
      const loop = () => {
        running = tick()
          .catch((err: unknown) =>
            deps.logger.warn({ err }, "slot lookahead failed; slots warm as they fire"),
          )
          .finally(() => {
            if (!stopped) timer = setTimeout(loop, everyMs).unref();
          });
      };
      timer = setTimeout(loop, 0).unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
