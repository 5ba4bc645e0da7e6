import type { Logger } from "../log.ts";
import { type KeyScheme, refFromIds, type WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { scanKeys } from "../store/scan.ts";
import { fromHash } from "../subscriptions/codec.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";

/**
 * Moves data written by versions before time slots (`<prefix>:ws:<E|->:<T|->:…`, no hash tag, sets as
 * indexes, one string key per claim) into the current scheme, at worker start, before the reconcile
 * (which then replaces the old per-subscription schedulers by slots). Idempotent and safe to run twice
 * at once: a value already in the new scheme wins and the old key is just dropped; each old key is
 * deleted only after its value was written. Caches are dropped, not moved.
 */

const SEALED = new Set(["installation", "apikey"]);
const DROPPED = new Set(["subs", "chan", "user", "insights", "introspection", "lock"]);
const LOCK_MS = 120_000;

interface LegacyKey {
  key: string;
  ref: WorkspaceRef;
  kind: string;
  rest: string[];
}

function parseLegacy(prefix: string, key: string): LegacyKey | null {
  const root = `${prefix}:ws:`;
  if (!key.startsWith(root)) return null;
  const [enterprise, team, kind, ...rest] = key.slice(root.length).split(":");
  if (!enterprise || !team || !kind) return null;
  const ref = refFromIds(enterprise, team);
  return ref ? { key, ref, kind, rest } : null;
}

export interface MigrationCounts {
  moved: number;
  subscriptions: number;
  claims: number;
  dropped: number;
  left: number;
}

export async function migrateLegacyData(o: {
  redis: RedisClient;
  keys: KeyScheme;
  store: SubscriptionStore;
  logger: Logger;
}): Promise<MigrationCounts> {
  const { redis, keys, store, logger } = o;
  const counts: MigrationCounts = { moved: 0, subscriptions: 0, claims: 0, dropped: 0, left: 0 };
  const lock = keys.globalLock("migrate");
  const token = `${process.pid}.${Math.random()}`;
  const deadline = Date.now() + LOCK_MS;
  // One migrator at a time; the others wait for it, so no worker delivers from half-moved data.
  while (!(await redis.set(lock, token, "PX", LOCK_MS, "NX"))) {
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    const found: LegacyKey[] = [];
    for await (const page of scanKeys(redis, `${keys.prefix}:ws:*`))
      for (const key of page) {
        const parsed = parseLegacy(keys.prefix, key);
        if (parsed && !found.some((f) => f.key === key)) found.push(parsed);
      }
    if (found.length === 0) return counts;
    // Records first (then indexes can go), claims after (their subscriptions exist by then).
    const order = (k: LegacyKey) => (k.kind === "sub" ? 0 : k.kind === "claim" ? 2 : 1);
    found.sort((a, b) => order(a) - order(b));
    for (const k of found) {
      if (SEALED.has(k.kind) && k.rest.length === 0) {
        const target = keys.sealed(k.kind as "installation" | "apikey", k.ref);
        const hash = await redis.hgetall(k.key);
        if ((await redis.exists(target)) === 0 && Object.keys(hash).length > 0)
          await redis.hset(target, hash);
        counts.moved++;
      } else if (k.kind === "sub" && k.rest.length === 1) {
        const id = k.rest[0] as string;
        const sub = fromHash(id, k.ref, await redis.hgetall(k.key));
        if (sub && !(await store.exists(k.ref, id))) await store.insert(sub);
        counts.subscriptions++;
      } else if (k.kind === "claim" && k.rest.length === 2) {
        if (await moveClaim(redis, keys, k)) counts.claims++;
      } else if (DROPPED.has(k.kind)) {
        counts.dropped++;
      } else {
        counts.left++;
        continue;
      }
      await redis.unlink(k.key);
    }
    logger.info(counts, "data of an older version moved to the current key scheme");
    return counts;
  } finally {
    await redis.eval(
      "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0",
      1,
      lock,
      token,
    );
  }
}

/** `claim:<sub>:<period>` (`d|…`/`f|…`) and `claim:<sub>:<period>.posting` (epoch ms) into the period's hash. */
async function moveClaim(redis: RedisClient, keys: KeyScheme, k: LegacyKey): Promise<boolean> {
  const [subId, last] = k.rest as [string, string];
  const posting = last.endsWith(".posting");
  const period = posting ? last.slice(0, -".posting".length) : last;
  const [value, pttl] = await Promise.all([redis.get(k.key), redis.pttl(k.key)]);
  if (value === null) return false;
  const target = keys.deliveryClaims(k.ref, period);
  let next: string | null = null;
  if (!posting && (value.startsWith("d|") || value.startsWith("f|"))) next = value;
  // A post that may have gone out: the next taker looks before posting.
  if (posting && /^\d+$/.test(value)) next = `p||0|${value}`;
  if (next === null) return false;
  const current = await redis.hget(target, subId);
  // A verdict beats a posting note; anything already in the new scheme stays.
  if (current === null || (current.startsWith("p|") && !next.startsWith("p|")))
    await redis.hset(target, subId, next);
  if (pttl > 0 && (await redis.pttl(target)) < pttl) await redis.pexpire(target, pttl);
  return true;
}
