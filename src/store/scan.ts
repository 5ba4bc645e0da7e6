import type { Redis } from "ioredis";

/**
 * Walks the keyspace with SCAN (never KEYS, which blocks Redis) and yields each non-empty page.
 * SCAN may return a key more than once; callers that count must de-duplicate.
 *
 * @example
 * for await (const page of scanKeys(redis, keys.workspaceKeyPattern(ref))) await redis.unlink(...page);
 */
export async function* scanKeys(redis: Redis, pattern: string, count = 500): AsyncGenerator<string[]> {
  let cursor = "0";
  do {
    const [next, page] = await redis.scan(cursor, "MATCH", pattern, "COUNT", count);
    cursor = next;
    if (page.length > 0) yield page;
  } while (cursor !== "0");
}
