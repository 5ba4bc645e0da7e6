import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { fromHash, LAST_FIELDS, lastFields, type SubscriptionHash, toHash } from "./codec.ts";
import { slotOf } from "./slots.ts";
import type { LastDelivery, Subscription } from "./types.ts";

/**
 * Subscription records in Redis: one hash per subscription, an index hash per workspace (id →
 * channel) and, per time slot, a hash of the workspace's active members (id → channel). All of a
 * workspace's keys share its hash tag, so every write below is one atomic script or MULTI on a
 * cluster too, and slot membership never disagrees with the record. Writes to an existing record
 * refuse to resurrect a deleted one (a worker recording an outcome after the user deleted the
 * subscription must not leave a half record behind).
 */

// KEYS: record, index, [old slot], [new slot]. ARGV: id, channel, has old (1/0), has new (1/0), n cleared,
// cleared..., field/value pairs. Returns {written, members left in the old slot}. Only real keys are
// passed (an empty key name would hash to another cluster slot).
const PATCH = `
if redis.call('exists', KEYS[1]) == 0 then return {0, 0} end
local n = tonumber(ARGV[5])
for i = 6, 5 + n do redis.call('hdel', KEYS[1], ARGV[i]) end
if #ARGV > 5 + n then redis.call('hset', KEYS[1], unpack(ARGV, 6 + n)) end
redis.call('hset', KEYS[2], ARGV[1], ARGV[2])
local k = 3
local left = 0
if ARGV[3] == '1' then
  redis.call('hdel', KEYS[k], ARGV[1])
  left = redis.call('hlen', KEYS[k])
  k = k + 1
end
if ARGV[4] == '1' then redis.call('hset', KEYS[k], ARGV[1], ARGV[2]) end
return {1, left}`;

// KEYS: record. ARGV: n cleared, cleared..., field/value pairs. Never creates a record.
const RECORD_LAST = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
local n = tonumber(ARGV[1])
for i = 2, 1 + n do redis.call('hdel', KEYS[1], ARGV[i]) end
redis.call('hset', KEYS[1], unpack(ARGV, 2 + n))
return 1`;

// Sets `notified` unless it already holds this reason: 1 = the caller should tell the owner.
const NOTIFY_ONCE = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
if redis.call('hget', KEYS[1], 'notified') == ARGV[1] then return 0 end
redis.call('hset', KEYS[1], 'notified', ARGV[1])
return 1`;

/** Record-level access; the service keeps slots and their schedulers in step with it. */
export interface SubscriptionStore {
  insert(sub: Subscription): Promise<void>;
  get(ref: WorkspaceRef, id: string): Promise<Subscription | null>;
  list(ref: WorkspaceRef): Promise<Subscription[]>;
  listByChannel(ref: WorkspaceRef, channelId: string): Promise<Subscription[]>;
  /**
   * Sets the given fields and deletes `clear`, moving slot membership when the schedule, zone, channel
   * or status changes. False if the record is gone; `left` counts the members its old slot still has
   * in this workspace (0 = the workspace just left that slot).
   */
  patch(
    current: Subscription,
    set: Partial<Subscription>,
    clear?: readonly string[],
  ): Promise<{ written: boolean; left: number }>;
  /** Records the outcome of a delivery (only the last-delivery fields; never membership). */
  recordLast(ref: WorkspaceRef, id: string, last: LastDelivery): Promise<boolean>;
  /** True when this call recorded `reason` as told (so exactly one caller sends the DM). */
  markOwnerNotified(ref: WorkspaceRef, id: string, reason: string): Promise<boolean>;
  /** Deletes record, index entry and slot membership; `left` as for patch. */
  remove(sub: Subscription): Promise<{ removed: boolean; left: number }>;
  /** Every workspace that has a subscription index (all masters of a cluster). */
  workspaces(): AsyncGenerator<WorkspaceRef>;
  exists(ref: WorkspaceRef, id: string): Promise<boolean>;
  count(ref: WorkspaceRef): Promise<number>;
  /** One page of a workspace's members of a slot: [subscription id, channel id] pairs. */
  slotPage(
    ref: WorkspaceRef,
    slotId: string,
    cursor: string,
    count: number,
  ): Promise<{ cursor: string; members: [string, string][] }>;
}

/**
 * @example
 * const store = createSubscriptionStore({ redis, keys: createKeyScheme({ prefix }) });
 * const subs = await store.listByChannel(ref, "C0123ABCD");
 */
export function createSubscriptionStore(options: { redis: RedisClient; keys: KeyScheme }): SubscriptionStore {
  const { redis, keys } = options;

  async function load(ref: WorkspaceRef, ids: string[]): Promise<Subscription[]> {
    if (ids.length === 0) return [];
    const pipe = redis.pipeline();
    for (const id of ids) pipe.hgetall(keys.subscription(ref, id));
    const replies = (await pipe.exec()) ?? [];
    const subs: Subscription[] = [];
    const dangling: string[] = [];
    replies.forEach(([err, h], i) => {
      const id = ids[i] as string;
      const sub = err ? null : fromHash(id, ref, h as SubscriptionHash);
      if (sub) subs.push(sub);
      else if (!err) dangling.push(id);
    });
    // An index entry without a record can only be left by a crash between writes; heal it on read.
    if (dangling.length > 0) await redis.hdel(keys.subscriptionIndex(ref), ...dangling);
    return subs.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  return {
    async insert(sub) {
      const slot = slotOf(sub);
      const m = redis
        .multi()
        // Empty lists are left out of a new record (they read back as []); updates write "" to clear one.
        .hset(
          keys.subscription(sub.ref, sub.id),
          Object.fromEntries(Object.entries(toHash(sub)).filter(([, v]) => v !== "")),
        )
        .hset(keys.subscriptionIndex(sub.ref), sub.id, sub.channelId);
      if (slot) m.hset(keys.slotMembers(sub.ref, slot.id), sub.id, sub.channelId);
      await m.exec();
    },
    async get(ref, id) {
      return fromHash(id, ref, await redis.hgetall(keys.subscription(ref, id)));
    },
    async list(ref) {
      return load(ref, await redis.hkeys(keys.subscriptionIndex(ref)));
    },
    async listByChannel(ref, channelId) {
      const index = await redis.hgetall(keys.subscriptionIndex(ref));
      const ids = Object.entries(index).flatMap(([id, ch]) => (ch === channelId ? [id] : []));
      return (await load(ref, ids)).filter((s) => s.channelId === channelId);
    },
    async patch(current, set, clear = []) {
      const { ref, id } = current;
      const next = { ...current, ...set };
      const from = slotOf(current);
      const to = slotOf(next);
      const keyList = [keys.subscription(ref, id), keys.subscriptionIndex(ref)];
      if (from) keyList.push(keys.slotMembers(ref, from.id));
      if (to) keyList.push(keys.slotMembers(ref, to.id));
      const pairs = Object.entries(toHash(set)).flat();
      const [written, left] = (await redis.eval(
        PATCH,
        keyList.length,
        ...keyList,
        id,
        next.channelId,
        from ? "1" : "0",
        to ? "1" : "0",
        clear.length,
        ...clear,
        ...pairs,
      )) as [number, number];
      // Staying in the same slot: the workspace did not leave it.
      return { written: written === 1, left: from && to && from.id === to.id ? 1 : left };
    },
    async recordLast(ref, id, last) {
      const fields = lastFields(last);
      const clear = LAST_FIELDS.filter((f) => !(f in fields));
      const pairs = Object.entries(fields).flat();
      const done = await redis.eval(
        RECORD_LAST,
        1,
        keys.subscription(ref, id),
        clear.length,
        ...clear,
        ...pairs,
      );
      return done === 1;
    },
    async markOwnerNotified(ref, id, reason) {
      return (await redis.eval(NOTIFY_ONCE, 1, keys.subscription(ref, id), reason)) === 1;
    },
    async remove(sub) {
      const slot = slotOf(sub);
      const m = redis
        .multi()
        .del(keys.subscription(sub.ref, sub.id))
        .hdel(keys.subscriptionIndex(sub.ref), sub.id);
      if (slot) m.hdel(keys.slotMembers(sub.ref, slot.id), sub.id).hlen(keys.slotMembers(sub.ref, slot.id));
      // An alert's kept episode message and its feedback votes go with it.
      m.del(keys.alertMessage(sub.ref, sub.id), keys.alertFeedback(sub.ref, sub.id));
      const replies = (await m.exec()) ?? [];
      return { removed: replies[0]?.[1] === 1, left: slot ? Number(replies[3]?.[1] ?? 0) : 1 };
    },
    async *workspaces() {
      const seen = new Set<string>();
      for await (const page of scanKeys(redis, `${keys.allWorkspacesPattern()}:idx`)) {
        for (const key of page) {
          const parsed = keys.parse(key);
          if (parsed?.kind !== "idx" || parsed.rest.length > 0 || seen.has(key)) continue;
          seen.add(key);
          yield parsed.ref;
        }
      }
    },
    async exists(ref, id) {
      return (await redis.exists(keys.subscription(ref, id))) === 1;
    },
    count: (ref) => redis.hlen(keys.subscriptionIndex(ref)),
    async slotPage(ref, slotId, cursor, count) {
      const [next, flat] = await redis.hscan(keys.slotMembers(ref, slotId), cursor, "COUNT", count);
      const members: [string, string][] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) members.push([flat[i] as string, flat[i + 1] as string]);
      return { cursor: next, members };
    },
  };
}
