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
