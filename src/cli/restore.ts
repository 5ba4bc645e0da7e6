import { text } from "node:stream/consumers";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { silentLogger } from "../log.ts";
import { type CheckedRecord, checkRecords, countsLine, writeRecords } from "../store/backup.ts";
import { parseBackup } from "../store/backup-format.ts";
import { createKeyScheme } from "../store/keys.ts";
import { fromHash } from "../subscriptions/codec.ts";
import { connectOnce, prefixArgs, redisHost } from "./redis-once.ts";

/** A subscription record must read back as one, or the app would drop it as dangling. */
function subscriptionProblem(c: CheckedRecord): string | null {
  if (c.kind !== "sub" || c.record.t !== "hash" || !c.ref) return null;
  return fromHash(c.rest.join(":"), c.ref, c.record.v) ? null : "not a readable subscription record";
}

/**
 * `insights-digest restore [--prefix NAME] < FILE`: reads a backup from stdin, checks all of it
 * before writing anything (format version, checksum, keys, records, every sealed secret opening with
 * ENCRYPTION_KEYS), writes it, then reconciles the time slots' job schedulers as a worker's start
 * does, so the restored subscriptions run without waiting for one. Restoring the same file again
 * changes nothing more.
 */
export async function run(args: string[]): Promise<number> {
  const { prefix } = prefixArgs("restore", args);
  const config = loadConfig("restore");
  const { redisUrl, keyring } = config;
  if (!redisUrl || !keyring) throw new AppError("config", "restore needs REDIS_URL and ENCRYPTION_KEYS");
  if (process.stdin.isTTY)
    throw new AppError("usage", "restore reads a backup from stdin: insights-digest restore < FILE");
  const { header, records } = parseBackup(await text(process.stdin));
  const keys = createKeyScheme({ prefix });
  const checked = checkRecords(records, { keys, keyring, more: subscriptionProblem });
  const redis = await connectOnce(redisUrl);
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger: silentLogger(),
    prefix,
  });
  try {
    const counts = await writeRecords(redis, checked);
    const slots = await runtime.subscriptions.reconcile();
    const written = countsLine(counts);
    process.stdout.write(
      `restore: ${written || "nothing"} into ${redisHost(redisUrl)} (prefix "${prefix}", backup of ${header.createdAt}); ${slots.slots} time slots, ${slots.schedulersEnsured} schedulers made\n`,
    );
    return 0;
  } finally {
    await runtime.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
