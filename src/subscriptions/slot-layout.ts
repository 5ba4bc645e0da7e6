import { type KeyScheme, type WorkspaceRef, workspaceLabel } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { toHash } from "./codec.ts";
import type { Subscription } from "./types.ts";

/**
 * The reconcile's view of slot membership as stored: every workspace's member hashes, found in one walk
 * of the keyspace (all masters), and a guarded repair. A repair only applies while the record still
 * says what the reconcile read (schedule, zone, status, channel): a user's write in between has moved
 * the membership itself, and the reconcile must not undo it.
 */

/** label → slot id → (subscription id → channel). */
export type StoredMembers = Map<string, { ref: WorkspaceRef; slots: Map<string, Map<string, string>> }>;

// KEYS: record, member hash. ARGV: op (add|del), id, channel, then field/value pairs the record must hold.
const HEAL = `
local exists = redis.call('exists', KEYS[1]) == 1
if exists then
  for i = 4, #ARGV, 2 do
    if redis.call('hget', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return 0 end
  end
elseif ARGV[1] == 'add' then return 0 end
if ARGV[1] == 'add' then redis.call('hset', KEYS[2], ARGV[2], ARGV[3])
else redis.call('hdel', KEYS[2], ARGV[2]) end
return 1`;

const GUARD = ["kind", "days", "cron", "on", "time", "tz", "status", "channel"] as const;

export function createSlotLayout(o: { redis: RedisClient; keys: KeyScheme }) {
  const { redis, keys } = o;
  return {
    /** Every workspace with an index, and every member hash, read in full before anything is changed. */
    async scan(): Promise<{ workspaces: WorkspaceRef[]; members: StoredMembers }> {
      const workspaces = new Map<string, WorkspaceRef>();
      const slotKeys: { ref: WorkspaceRef; slotId: string; key: string }[] = [];
      const seen = new Set<string>();
      for await (const page of scanKeys(redis, keys.allWorkspacesPattern())) {
        for (const key of page) {
          const p = keys.parse(key);
          if (!p || seen.has(key)) continue;
          seen.add(key);
          if (p.kind === "idx" && p.rest.length === 0) workspaces.set(workspaceLabel(p.ref), p.ref);
          if (p.kind === "slot" && p.rest.length === 1)
            slotKeys.push({ ref: p.ref, slotId: p.rest[0] as string, key });
        }
      }
      const members: StoredMembers = new Map();
      const hashes = await Promise.all(slotKeys.map((s) => redis.hgetall(s.key)));
      slotKeys.forEach((s, i) => {
        const label = workspaceLabel(s.ref);
        const entry = members.get(label) ?? { ref: s.ref, slots: new Map() };
        entry.slots.set(s.slotId, new Map(Object.entries(hashes[i] ?? {})));
        members.set(label, entry);
      });
      return { workspaces: [...workspaces.values()], members };
    },
    /** Adds or removes one member if the record is still as `sub` (or, for a removal, gone). */
    async heal(
      op: "add" | "del",
      ref: WorkspaceRef,
      subId: string,
      slotId: string,
      sub: Subscription | null,
    ) {
      const h = sub ? toHash(sub) : {};
      // Fields the record lacks are not compared: a change of them changes `kind` too.
      const pairs = GUARD.flatMap((f) => (h[f] ? [f, h[f] as string] : []));
      const done = await redis.eval(
        HEAL,
        2,
        keys.subscription(ref, subId),
        keys.slotMembers(ref, slotId),
        op,
        subId,
        sub?.channelId ?? "",
        ...pairs,
      );
      return done === 1;
    },
  };
}

export type SlotLayout = ReturnType<typeof createSlotLayout>;
