import { createHash } from "node:crypto";
import type { RedisClient } from "./redis-client.ts";

/**
 * Lua scripts sent by their SHA (EVALSHA) rather than their text on every call: a delivery runs half a
 * dozen scripts, some a kilobyte long. A server that has not seen a script yet (a restart, a new
 * cluster node) answers NOSCRIPT, and the text goes once (EVAL caches it there).
 */
export interface Script {
  lua: string;
  sha: string;
}

export function script(lua: string): Script {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

export async function runScript(
  redis: RedisClient,
  s: Script,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(s.sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith("NOSCRIPT")) throw err;
    return redis.eval(s.lua, keys.length, ...keys, ...args);
  }
}

/** A lock's owner token: whoever holds it releases only a lock that still says it. */
export const lockToken = (): string => `${process.pid}:${Math.random()}`;
