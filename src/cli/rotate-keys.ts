import { Redis } from "ioredis";
import { destination } from "pino";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createLogger } from "../log.ts";
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
  const u = new URL(url);
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
  // Fail fast: a one-shot command should not wait on reconnects.
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    await redis.connect().catch((cause: unknown) => {
      throw new AppError("redis_unavailable", `Cannot connect to Redis at ${redisHost(redisUrl)}`, { cause });
    });
    const c = await rotateKeys({ redis, keyring, prefix, logger });
    process.stdout.write(
      `rotate-keys: scanned ${c.scanned}, rotated ${c.rotated}, already current ${c.alreadyCurrent}, failed ${c.failed}, skipped ${c.skipped} (newest key "${keyring[0]?.id}")\n`,
    );
    return c.failed > 0 ? 1 : 0;
  } finally {
    if (redis.status === "ready") await redis.quit();
    else redis.disconnect();
  }
}
