import { destination } from "pino";
import { connectRedis } from "../app/redis.ts";
import { loadConfig, parseRedisUrl } from "../config.ts";
import { AppError } from "../errors.ts";
import { createLogger, silentLogger } from "../log.ts";
import { DEFAULT_PREFIX } from "../store/keys.ts";
import { rotateKeys } from "../store/rotate.ts";

/** Reads `--prefix NAME`; anything else is a usage error. */
function parseArgs(args: string[]): { prefix: string } {
  let prefix = DEFAULT_PREFIX;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = args[i + 1];
    if (arg === "--prefix" && value !== undefined) {
      prefix = value;
      i++;
    } else {
      throw new AppError(
        "usage",
        `rotate-keys: unknown argument "${arg}". Usage: rotate-keys [--prefix NAME]`,
      );
    }
  }
  return { prefix };
}

/** Where REDIS_URL points, without the password it may carry. */
function redisHost(url: string): string {
  const target = parseRedisUrl(url);
  if (target.kind === "cluster")
    return `the cluster at ${target.nodes.map((n) => `${n.host}:${n.port}`).join(",")}`;
  if (target.kind === "sentinel")
    return `the primary "${target.name}" of the sentinels at ${target.sentinels.map((n) => `${n.host}:${n.port}`).join(",")}`;
  const u = new URL(target.url);
  return `${u.hostname}:${u.port || "6379"}`;
}

/**
 * `insights-digest rotate-keys [--prefix NAME]`: re-encrypts every sealed value under the newest
 * key of ENCRYPTION_KEYS. Returns 1 when any value could not be rotated.
 */
export async function run(args: string[]): Promise<number> {
  const { prefix } = parseArgs(args);
  const config = loadConfig("rotate-keys");
  const { redisUrl, keyring } = config;
  // loadConfig("rotate-keys") already requires both; this narrows the types.
  if (!redisUrl || !keyring) throw new AppError("config", "rotate-keys needs REDIS_URL and ENCRYPTION_KEYS");
  const logger = createLogger({ level: config.logLevel, name: "rotate-keys", destination: destination(2) });
  // One server or a cluster, as the app connects; a one-shot command gives up on the first failure.
  const redis = connectRedis(redisUrl, silentLogger());
  try {
    const unreachable = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error("no answer within 5 s")), 5_000).unref(),
    );
    await Promise.race([redis.ping(), unreachable]).catch((cause: unknown) => {
      throw new AppError("redis_unavailable", `Cannot connect to Redis at ${redisHost(redisUrl)}`, { cause });
    });
    const c = await rotateKeys({ redis, keyring, prefix, logger });
    process.stdout.write(
      `rotate-keys: scanned ${c.scanned}, rotated ${c.rotated}, already current ${c.alreadyCurrent}, failed ${c.failed}, skipped ${c.skipped} (newest key "${keyring[0]?.id}")\n`,
    );
    return c.failed > 0 ? 1 : 0;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
