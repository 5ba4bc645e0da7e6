import type { Redis } from "ioredis";
import { scanKeys } from "../../../src/store/scan.ts";
import { round } from "../stats.ts";

/** Redis memory per subscription, two ways: the server's own total, and MEMORY USAGE key by key. */
export interface MemoryFigures {
  subscriptions: number;
  /** INFO used_memory after creating them minus before, per subscription (allocator overhead included). */
  infoDeltaPerSub: number;
  /** MEMORY USAGE of the keys a subscription owns or shares, per subscription, by part. */
  perSub: {
    record: number;
    indexes: number;
    schedulerHash: number;
    pendingJob: number;
    queueSets: number;
    total: number;
  };
}

export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
}

async function usage(redis: Redis, pattern: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for await (const page of scanKeys(redis, pattern, 1_000)) {
    const pipe = redis.pipeline();
    for (const key of page) pipe.call("MEMORY", "USAGE", key, "SAMPLES", "0");
    const replies = (await pipe.exec()) ?? [];
    page.forEach((key, i) => {
      sizes.set(key, Number(replies[i]?.[1] ?? 0));
    });
  }
  return sizes;
}

/**
 * Classifies the store's keys (`<prefix>:…`) and the queue's (`<queuePrefix>:<queue>:…`). Workspace
 * records (API key envelopes, user cache) are not per subscription and are left out; so is the
 * queue's events stream (an activity log trimmed at ~10,000 entries whatever the count).
 */
export async function measureMemory(o: {
  redis: Redis;
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
  const indexes = sum(ours, (k) => k.endsWith(":subs"));
  const schedulerHash = sum(bull, (k) => /:repeat:[^:]+$/.test(k));
  const pendingJob = sum(bull, (k) => /:repeat:[^:]+:\d+$/.test(k));
  const queueSets = sum(bull, (k) => !/:repeat:[^:]+(:\d+)?$/.test(k) && !k.endsWith(":events"));
  return {
    subscriptions: o.subscriptions,
    infoDeltaPerSub: round((after - o.before) / n, 0),
    perSub: {
      record,
      indexes,
      schedulerHash,
      pendingJob,
      queueSets,
      total: record + indexes + schedulerHash + pendingJob + queueSets,
    },
  };
}
