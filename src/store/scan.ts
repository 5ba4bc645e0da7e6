import { type RedisClient, scanTargets } from "./redis-client.ts";

/**
 * Walks the keyspace with SCAN (never KEYS, which blocks Redis) and yields each non-empty page. On a
 * Redis Cluster it walks every master in turn, and refuses to start (`redis_partial_view`) unless the
 * masters it knows cover every slot; an error from any master ends the walk with that error, so a
 * caller never mistakes a partial walk for the whole keyspace. SCAN may return a key more than once;
 * callers that count must de-duplicate.
 *
 * @example
 * for await (const page of scanKeys(redis, keys.workspaceKeyPattern(ref))) await unlinkKeys(redis, page);
 */
export async function* scanKeys(redis: RedisClient, pattern: string, count = 500): AsyncGenerator<string[]> {
  for (const node of await scanTargets(redis)) {
    let cursor = "0";
    do {
      const [next, page] = await node.scan(cursor, "MATCH", pattern, "COUNT", count);
      cursor = next;
      if (page.length > 0) yield page;
    } while (cursor !== "0");
  }
}
