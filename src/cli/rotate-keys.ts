import { destination } from "pino";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createLogger } from "../log.ts";
import { rotateKeys } from "../store/rotate.ts";
import { connectOnce, prefixArgs } from "./redis-once.ts";

/**
 * `insights-digest rotate-keys [--prefix NAME]`: re-encrypts every sealed value under the newest
 * key of ENCRYPTION_KEYS. Returns 1 when any value could not be rotated.
 */
export async function run(args: string[]): Promise<number> {
  const { prefix } = prefixArgs("rotate-keys", args);
  const config = loadConfig("rotate-keys");
  const { redisUrl, keyring } = config;
  // loadConfig("rotate-keys") already requires both; this narrows the types.
  if (!redisUrl || !keyring) throw new AppError("config", "rotate-keys needs REDIS_URL and ENCRYPTION_KEYS");
  const logger = createLogger({ level: config.logLevel, name: "rotate-keys", destination: destination(2) });
  const redis = await connectOnce(redisUrl);
  try {
    const c = await rotateKeys({ redis, keyring, prefix, logger });
    process.stdout.write(
      `rotate-keys: scanned ${c.scanned}, rotated ${c.rotated}, already current ${c.alreadyCurrent}, failed ${c.failed}, skipped ${c.skipped} (newest key "${keyring[0]?.id}")\n`,
    );
    return c.failed > 0 ? 1 : 0;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
