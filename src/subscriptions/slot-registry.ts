import { type KeyScheme, parseWorkspaceLabel, type WorkspaceRef, workspaceLabel } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";

/**
 * Which workspaces have members in a time slot: one set per slot, outside every workspace's hash tag
 * (a slot spans workspaces), so it cannot be written in the same transaction as a record. It is kept
 * a superset instead: a workspace is added before its first member is written and again after, and
 * removed only when its member hash is empty, re-added if a member arrived meanwhile. The fan-out
 * tolerates (and prunes) a workspace with no members; a missing one would lose deliveries.
 */
export interface SlotRegistry {
  join(slotId: string, ref: WorkspaceRef): Promise<void>;
  /** Removes the workspace unless it has members again; returns how many workspaces the slot has left. */
  leave(slotId: string, ref: WorkspaceRef): Promise<number>;
  workspaces(slotId: string): Promise<WorkspaceRef[]>;
  size(slotId: string): Promise<number>;
  /** Every slot with a workspace set, on every master. */
  slots(): AsyncGenerator<string>;
}

export function createSlotRegistry(o: { redis: RedisClient; keys: KeyScheme }): SlotRegistry {
  const { redis, keys } = o;
  return {
    async join(slotId, ref) {
      await redis.sadd(keys.slotWorkspaces(slotId), workspaceLabel(ref));
    },
    async leave(slotId, ref) {
      const set = keys.slotWorkspaces(slotId);
      const label = workspaceLabel(ref);
      await redis.srem(set, label);
      // A member written between our emptiness check and the SREM: the workspace stays in.
      if ((await redis.hlen(keys.slotMembers(ref, slotId))) > 0) await redis.sadd(set, label);
      return redis.scard(set);
    },
    async workspaces(slotId) {
      const labels = (await redis.smembers(keys.slotWorkspaces(slotId))).sort();
      return labels.flatMap((l) => {
        const ref = parseWorkspaceLabel(l);
        return ref ? [ref] : [];
      });
    },
    size: (slotId) => redis.scard(keys.slotWorkspaces(slotId)),
    async *slots() {
      const seen = new Set<string>();
      for await (const page of scanKeys(redis, keys.allSlotsPattern())) {
        for (const key of page) {
          const id = keys.parseSlotKey(key);
          if (id && !seen.has(id)) {
            seen.add(id);
            yield id;
          }
        }
      }
    },
  };
}
