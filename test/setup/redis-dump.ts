import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";

/**
 * Every key matching `pattern` (on every master of a cluster) with its value(s), one line each and
 * sorted, so a test can see what a removal left behind. SCAN may return a key twice; it is listed once.
 */
export async function dumpRedis(redis: RedisClient, pattern = "*"): Promise<string[]> {
  const keys = new Set<string>();
  for await (const page of scanKeys(redis, pattern, 1000)) for (const key of page) keys.add(key);
  const lines: string[] = [];
  for (const key of keys) lines.push(`${key} ${JSON.stringify(await storedValue(redis, key))}`);
  return lines.sort();
}

async function storedValue(redis: RedisClient, key: string): Promise<unknown> {
  switch (await redis.type(key)) {
    case "string":
      return redis.get(key);
    case "hash":
      return redis.hgetall(key);
    case "set":
      return redis.smembers(key);
    case "zset":
      return redis.zrange(key, 0, "-1", "WITHSCORES");
    case "list":
      return redis.lrange(key, 0, -1);
    case "stream":
      return redis.xrange(key, "-", "+");
    default:
      return null;
  }
}

/** The lines of a dump whose key or value names any of `ids`. */
export const naming = (lines: string[], ...ids: string[]) =>
  lines.filter((l) => ids.some((id) => l.includes(id)));
