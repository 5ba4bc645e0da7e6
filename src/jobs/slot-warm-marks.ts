import type { KeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/**
 * The mark of one slot's fire warmed ahead (slot-lookahead.ts), one key with a TTL: taken by the one
 * process that walks the slot, then marked walked once every member was handed over, which tells the
 * fan-out not to hand them over again. Both expire past the fire.
 */
export interface SlotWarmMarks {
  /** True for the one caller that takes this fire's walk (set if absent). */
  claim(slotId: string, period: string, ttlMs: number): Promise<boolean>;
  /** Marks the walk done (only while the claim stands). */
  walked(slotId: string, period: string, ttlMs: number): Promise<void>;
  /** Whether this fire's walk handed every member over. */
  walkedAhead(slotId: string, period: string): Promise<boolean>;
}

const CLAIMED = "claimed";
const WALKED = "walked";

export function createSlotWarmMarks(deps: { redis: RedisClient; keys: KeyScheme }): SlotWarmMarks {
  const { redis, keys } = deps;
  const ttl = (ms: number) => Math.max(1, Math.ceil(ms));
  return {
    async claim(slotId, period, ttlMs) {
      return (await redis.set(keys.slotWarm(slotId, period), CLAIMED, "PX", ttl(ttlMs), "NX")) === "OK";
    },
    async walked(slotId, period, ttlMs) {
      await redis.set(keys.slotWarm(slotId, period), WALKED, "PX", ttl(ttlMs), "XX");
    },
    async walkedAhead(slotId, period) {
      return (await redis.get(keys.slotWarm(slotId, period))) === WALKED;
    },
  };
}
