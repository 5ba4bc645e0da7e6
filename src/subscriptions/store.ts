import type { Redis } from "ioredis";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import { scanKeys } from "../store/scan.ts";
import { fromHash, type SubscriptionHash, toHash } from "./codec.ts";
import type { Subscription } from "./types.ts";

/**
 * Subscription records in Redis: one hash per subscription, a set of ids per workspace and one per
 * channel. Multi-key writes go in one MULTI or script so an index never disagrees with the records;
 * writes to an existing record go through a script that refuses to resurrect a deleted one (a worker
 * recording an outcome after the user deleted the subscription must not leave a half record behind).
 */

// KEYS: hash, [old channel set, new channel set]. ARGV: id, number of fields to delete, those fields, field/value pairs.
const PATCH = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
local n = tonumber(ARGV[2])
for i = 3, 2 + n do redis.call('hdel', KEYS[1], ARGV[i]) end
if #ARGV > 2 + n then redis.call('hset', KEYS[1], unpack(ARGV, 3 + n)) end
if #KEYS == 3 then
  redis.call('srem', KEYS[2], ARGV[1])
  redis.call('sadd', KEYS[3], ARGV[1])
end
return 1`;

// Sets `notified` unless it already holds this reason: 1 = the caller should tell the owner.
const NOTIFY_ONCE = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
if redis.call('hget', KEYS[1], 'notified') == ARGV[1] then return 0 end
redis.call('hset', KEYS[1], 'notified', ARGV[1])
return 1`;

/** Record-level access; the service keeps schedulers in step with it. */
export interface SubscriptionStore {
  insert(sub: Subscription): Promise<void>;
  get(ref: WorkspaceRef, id: string): Promise<Subscription | null>;
  list(ref: WorkspaceRef): Promise<Subscription[]>;
  listByChannel(ref: WorkspaceRef, channelId: string): Promise<Subscription[]>;
  /** Sets the given fields and deletes `clear`; moves the channel index when the channel changes. False if gone. */
  patch(current: Subscription, set: Partial<Subscription>, clear?: readonly string[]): Promise<boolean>;
  /** True when this call recorded `reason` as told (so exactly one caller sends the DM). */
  markOwnerNotified(ref: WorkspaceRef, id: string, reason: string): Promise<boolean>;
  remove(sub: Subscription): Promise<boolean>;
  /** Every workspace that has a subscription index. */
  workspaces(): AsyncGenerator<WorkspaceRef>;
  exists(ref: WorkspaceRef, id: string): Promise<boolean>;
  count(ref: WorkspaceRef): Promise<number>;
}

/**
 * @example
 * const store = createSubscriptionStore({ redis, keys: createKeyScheme({ prefix }) });
 * const subs = await store.listByChannel(ref, "C0123ABCD");
 */
export function createSubscriptionStore(options: { redis: Redis; keys: KeyScheme }): SubscriptionStore {
  const { redis, keys } = options;

  async function load(ref: WorkspaceRef, ids: string[], indexKey: string): Promise<Subscription[]> {
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
    if (dangling.length > 0) await redis.srem(indexKey, ...dangling);
    return subs.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  }

  return {
    async insert(sub) {
      await redis
        .multi()
        // Empty lists are left out of a new record (they read back as []); updates write "" to clear one.
        .hset(
          keys.subscription(sub.ref, sub.id),
          Object.fromEntries(Object.entries(toHash(sub)).filter(([, v]) => v !== "")),
        )
        .sadd(keys.subscriptionIndex(sub.ref), sub.id)
        .sadd(keys.channelSubscriptions(sub.ref, sub.channelId), sub.id)
        .exec();
    },
    async get(ref, id) {
      return fromHash(id, ref, await redis.hgetall(keys.subscription(ref, id)));
    },
    async list(ref) {
      const index = keys.subscriptionIndex(ref);
      return load(ref, await redis.smembers(index), index);
    },
    async listByChannel(ref, channelId) {
      const index = keys.channelSubscriptions(ref, channelId);
      return load(ref, await redis.smembers(index), index);
    },
    async patch(current, set, clear = []) {
      const { ref, id } = current;
      const moved = set.channelId !== undefined && set.channelId !== current.channelId;
      const keyList = [keys.subscription(ref, id)];
      if (moved)
        keyList.push(
          keys.channelSubscriptions(ref, current.channelId),
          keys.channelSubscriptions(ref, set.channelId as string),
        );
      const pairs = Object.entries(toHash(set)).flat();
      const done = await redis.eval(PATCH, keyList.length, ...keyList, id, clear.length, ...clear, ...pairs);
      return done === 1;
    },
    async markOwnerNotified(ref, id, reason) {
      return (await redis.eval(NOTIFY_ONCE, 1, keys.subscription(ref, id), reason)) === 1;
    },
    async remove(sub) {
      const replies = await redis
        .multi()
        .del(keys.subscription(sub.ref, sub.id))
        .srem(keys.subscriptionIndex(sub.ref), sub.id)
        .srem(keys.channelSubscriptions(sub.ref, sub.channelId), sub.id)
        .exec();
      return replies?.[0]?.[1] === 1;
    },
    async *workspaces() {
      const seen = new Set<string>();
      for await (const page of scanKeys(redis, `${keys.allWorkspacesPattern()}:subs`)) {
        for (const key of page) {
          const parsed = keys.parse(key);
          if (parsed?.kind !== "subs" || parsed.rest.length > 0 || seen.has(key)) continue;
          seen.add(key);
          yield parsed.ref;
        }
      }
    },
    async exists(ref, id) {
      return (await redis.exists(keys.subscription(ref, id))) === 1;
    },
    count: (ref) => redis.scard(keys.subscriptionIndex(ref)),
  };
}
