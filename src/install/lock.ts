import { randomUUID } from "node:crypto";
import type { RedisClient } from "../store/redis-client.ts";

/**
 * A single-Redis mutex (SET NX PX). It bounds how many processes do a job at once; it is not what
 * keeps data correct: writers still compare-and-set, because a holder can outlive its TTL.
 */

export interface HeldLock {
  /** Releases the lock if this holder still owns it; a no-op after expiry or takeover. */
  release(): Promise<void>;
}

// Delete only our own token: a lock that expired and was taken by another process stays theirs.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Tries once; null when another holder has it. */
export async function tryLock(redis: RedisClient, key: string, ttlMs: number): Promise<HeldLock | null> {
  const token = randomUUID();
  const ok = await redis.set(key, token, "PX", ttlMs, "NX");
  if (ok !== "OK") return null;
  return {
    async release() {
      await redis.eval(RELEASE, 1, key, token);
    },
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
