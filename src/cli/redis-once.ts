import { connectRedis } from "../app/redis.ts";
import { parseRedisUrl } from "../config.ts";
import { AppError } from "../errors.ts";
import { silentLogger } from "../log.ts";
import { DEFAULT_PREFIX } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";

/** Reads `--prefix NAME` (the key prefix, as the app's; default "insights"); anything else is a usage error. */
export function prefixArgs(command: string, args: string[]): { prefix: string } {
  let prefix = DEFAULT_PREFIX;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    if (arg === "--prefix" && value !== undefined) {
      prefix = value;
      i++;
    } else {
      throw new AppError("usage", `${command}: unknown argument "${arg}". Usage: ${command} [--prefix NAME]`);
    }
  }
  return { prefix };
}

/** Where REDIS_URL points, without the password it may carry. */
export function redisHost(url: string): string {
  const target = parseRedisUrl(url);
  const list = (nodes: { host: string; port: number }[]) => nodes.map((n) => `${n.host}:${n.port}`).join(",");
  if (target.kind === "cluster") return `the cluster at ${list(target.nodes)}`;
  if (target.kind === "sentinel")
    return `the primary "${target.name}" of the sentinels at ${list(target.sentinels)}`;
  const u = new URL(target.url);
  return `${u.hostname}:${u.port || "6379"}`;
}

/**
 * A connection for a one-shot command (rotate-keys, backup, restore), as the app connects: one
 * server, a cluster or Sentinel. It gives up with `redis_unavailable`, naming where it looked, when
 * Redis does not answer within `ms` [5 s], rather than retrying for ever as a server process does.
 */
export async function connectOnce(url: string, ms = 5_000): Promise<RedisClient> {
  const redis = connectRedis(url, silentLogger());
  const unreachable = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms).unref(),
  );
  try {
    await Promise.race([redis.ping(), unreachable]);
  } catch (cause) {
    redis.disconnect();
    throw new AppError("redis_unavailable", `Cannot connect to Redis at ${redisHost(url)}`, { cause });
  }
  return redis;
}
