import { digestToken } from "../store/keys.ts";
import { cronFor } from "./schedule.ts";
import type { Subscription } from "./types.ts";

/**
 * Time slots: every active subscription with the same cron pattern, IANA zone and gate fires at the
 * same instants, so they share one slot and one job scheduler. A slot's id is a hash of them, short,
 * key-safe and free of ':' and '.' (it goes into keys and scheduler ids). A slot without a gate hashes
 * only its pattern and zone, as slots did before gates, so existing slots keep their ids.
 */
export interface SlotSpec {
  id: string;
  pattern: string;
  tz: string;
  /** Which of the pattern's fires go out (month-day.ts); absent: all of them. */
  gate?: string;
}

/** The slot of a pattern, zone and gate. */
export function slotFor(pattern: string, tz: string, gate?: string): SlotSpec {
  const token = gate === undefined ? digestToken(pattern, tz) : digestToken(pattern, tz, gate);
  return {
    id: token.slice(0, 16).replace(/[-_]/g, "0"),
    pattern,
    tz,
    ...(gate !== undefined ? { gate } : {}),
  };
}

/** The slot an active subscription belongs to; null while paused (paused ones are in none). */
export function slotOf(sub: Pick<Subscription, "schedule" | "time" | "tz" | "status">): SlotSpec | null {
  if (sub.status !== "active") return null;
  const { pattern, tz, gate } = cronFor(sub.schedule, sub.time, sub.tz);
  return slotFor(pattern, tz, gate);
}

/** The BullMQ job scheduler id of a slot. */
export const slotSchedulerId = (slotId: string) => `slot.${slotId}`;

/** The slot id of a scheduler id we made, or null. */
export function parseSlotSchedulerId(id: string): string | null {
  const m = /^slot\.([A-Za-z0-9]{16})$/.exec(id);
  return m ? (m[1] as string) : null;
}
