import { type RedisClient, scanTargets } from "../../../src/store/redis-client.ts";
import { scanKeys } from "../../../src/store/scan.ts";
import { round } from "../stats.ts";

/** Redis memory per subscription, two ways: the server's own total, and MEMORY USAGE key by key. */
export interface MemoryFigures {
  subscriptions: number;
  /** INFO used_memory (every master) now minus before the subscriptions were made, per subscription. */
  infoDeltaPerSub: number;
  /** MEMORY USAGE of the keys a subscription owns or shares, per subscription, by part. */
  perSub: {
    record: number;
    /** Workspace index and slot membership hashes, slot registrations. */
    indexes: number;
    /** Delivery claims (expire after 36 h). */
    claims: number;
    /** Pacing counters and the insights cache (expire within a minute). */
    transient: number;
    /** Every BullMQ key but the events stream: schedulers, waiting/delayed/failed jobs, sets. */
    queue: number;
    /** The queue's events stream (an activity log capped at ~1,000 entries, whatever the count). */
    events: number;
    total: number;
  };
}

export async function usedMemory(redis: RedisClient): Promise<number> {
  let total = 0;
  for (const node of await scanTargets(redis)) {
    const info = await node.info("memory");
    total += Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
  }
  return total;
}

async function usage(redis: RedisClient, pattern: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for await (const page of scanKeys(redis, pattern, 1_000)) {
    // One call per key: on a cluster the keys of a page span slots.
    const replies = await Promise.all(page.map((key) => redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")));
    page.forEach((key, i) => {
      sizes.set(key, Number(replies[i] ?? 0));
    });
  }
  return sizes;
}

/** Classifies the store's keys (`<prefix>:…`) and the queue's (`<queuePrefix>:<queue>:…`). */
export async function measureMemory(o: {
  redis: RedisClient;
  prefix: string;
  queueKeyPrefix: string;
  subscriptions: number;
  before: number;
}): Promise<MemoryFigures> {
  const after = await usedMemory(o.redis);
  const ours = await usage(o.redis, `${o.prefix}:*`);
  const bull = await usage(o.redis, `${o.queueKeyPrefix}:*`);
  const n = Math.max(1, o.subscriptions);
  const sum = (m: Map<string, number>, f: (k: string) => boolean) => {
    let t = 0;
    for (const [k, v] of m) if (f(k)) t += v;
    return round(t / n, 0);
  };
  const record = sum(ours, (k) => k.includes(":sub:"));
  const indexes = sum(ours, (k) => k.endsWith(":idx") || k.includes(":slot:"));
  const claims = sum(ours, (k) => k.includes(":claims:"));
  // API key envelopes are one per workspace, not per subscription: left out.
  const transient = sum(ours, (k) => k.includes(":pace:") || k.includes(":insights") || k.includes(":lock:"));
  const queue = sum(bull, (k) => !k.endsWith(":events"));
  const events = sum(bull, (k) => k.endsWith(":events"));
  return {
    subscriptions: o.subscriptions,
    infoDeltaPerSub: round((after - o.before) / n, 0),
    perSub: {
      record,
      indexes,
      claims,
      transient,
      queue,
      events,
      total: record + indexes + claims + transient + queue + events,
    },
  };
}

/** What one family of keys holds: its keys counted, and their bytes estimated from a sample. */
export interface FamilyUsage {
  /** The keys' shared name, ids and workspaces replaced by `*` (keyFamily). */
  family: string;
  keys: number;
  /** Keys whose MEMORY USAGE was read. */
  sampled: number;
  /** The sample's mean times the family's count. */
  bytes: number;
}

/** A key segment that names one thing (an id, a time, a token) rather than a kind of thing. */
const NAMES_ONE = /\d|^[A-Z]{2,}$|^.{21,}$/;

/** A segment seen in fewer keys than this, after a workspace key's kind, is an id (a subscription's: 8 letters). */
const RARE = 3;

/**
 * A key's family: its name with the workspace namespace (`{w:T…}:E…`), the account tag (`{a:…}`)
 * and every segment that names one thing collapsed to `*`, so `insights:{w:T1}:-:sub:ab12` and
 * `insights:{w:T2}:-:sub:cd34` are both `insights:{w}:sub:*`. Ids of letters alone are told apart from
 * words by `seen`, the number of keys each segment occurs in: past a workspace key's kind, a segment
 * in fewer than three keys is an id.
 */
export function keyFamily(key: string, seen?: ReadonlyMap<string, number>): string {
  const inWorkspace = /\{w:[^}]*\}:[^:]+/.test(key);
  const parts = key
    .replace(/\{w:[^}]*\}:[^:]+/, "{w}")
    .replace(/\{a:[^}]*\}/, "{a}")
    .split(":");
  const kindAt = parts.indexOf("{w}") + 1;
  const named = parts.map((part, i) => {
    if (part.startsWith("{")) return part;
    if (NAMES_ONE.test(part)) return "*";
    return inWorkspace && seen && i > kindAt && (seen.get(part) ?? 0) < RARE ? "*" : part;
  });
  return named.filter((p, i) => p !== "*" || named[i - 1] !== "*").join(":");
}

/**
 * Redis memory by family of keys: every key counted with SCAN, MEMORY USAGE read for up to
 * `samplesPerFamily` of each family (the first met, in SCAN's order, which is the hash table's and
 * no key's own), each family's bytes estimated as the sample's mean times its count. Largest first.
 */
export async function memoryByFamily(redis: RedisClient, samplesPerFamily = 200): Promise<FamilyUsage[]> {
  const keys = new Set<string>();
  for await (const page of scanKeys(redis, "*", 1_000)) for (const key of page) keys.add(key);
  const seen = new Map<string, number>();
  for (const key of keys)
    for (const part of new Set(key.split(":"))) seen.set(part, (seen.get(part) ?? 0) + 1);
  const families = new Map<string, { keys: number; sample: string[] }>();
  for (const key of keys) {
    const name = keyFamily(key, seen);
    const f = families.get(name) ?? { keys: 0, sample: [] };
    f.keys++;
    if (f.sample.length < samplesPerFamily) f.sample.push(key);
    families.set(name, f);
  }
  const out: FamilyUsage[] = [];
  for (const [family, f] of families) {
    // One call per key: on a cluster the keys of a family span slots.
    const sizes = await Promise.all(
      f.sample.map(async (key) => Number((await redis.call("MEMORY", "USAGE", key, "SAMPLES", "0")) ?? 0)),
    );
    const mean = sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length);
    out.push({ family, keys: f.keys, sampled: sizes.length, bytes: Math.round(mean * f.keys) });
  }
  return out.sort((a, b) => b.bytes - a.bytes);
}
