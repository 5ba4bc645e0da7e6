import { text } from "node:stream/consumers";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { silentLogger } from "../log.ts";
import { type CheckedRecord, checkRecords, countsLine, writeRecords } from "../store/backup.ts";
import { parseBackup } from "../store/backup-format.ts";
import { createKeyScheme, DEFAULT_PREFIX } from "../store/keys.ts";
import { conflicts, deleteAbsent, notEmpty, planRestore } from "../store/restore-plan.ts";
import { fromHash } from "../subscriptions/codec.ts";
import { connectOnce, prefixArgs, redisHost } from "./redis-once.ts";

/** A subscription record must read back as one, or the app would drop it as dangling. */
function subscriptionProblem(c: CheckedRecord): string | null {
  if (c.kind !== "sub" || c.record.t !== "hash" || !c.ref) return null;
  return fromHash(c.rest.join(":"), c.ref, c.record.v) ? null : "not a readable subscription record";
}

/** Reads `[--prefix NAME] [--replace]`; no prefix means the backup's own. */
function restoreArgs(args: string[]): { prefix?: string; replace: boolean } {
  const rest = args.filter((a) => a !== "--replace");
  const replace = rest.length < args.length;
  if (rest.length === 0) return { replace };
  try {
    return { ...prefixArgs("restore", rest), replace };
  } catch {
    const unknown = rest.find((a, i) => a !== "--prefix" && rest[i - 1] !== "--prefix") ?? rest.join(" ");
    throw new AppError(
      "usage",
      `restore: unknown argument "${unknown}". Usage: restore [--prefix NAME] [--replace] < FILE`,
    );
  }
}

/**
 * The prefix to write under: `--prefix`, else the one the backup was taken under. Web and worker read
 * only DEFAULT_PREFIX, so restoring elsewhere without saying so would exit 0 into keys no process
 * reads: that is refused, naming both choices; chosen with --prefix, it is said on stderr.
 */
function targetPrefix(chosen: string | undefined, taken: string): { prefix: string; note?: string } {
  if (chosen !== undefined)
    return chosen === DEFAULT_PREFIX
      ? { prefix: chosen }
      : {
          prefix: chosen,
          note: `restore: note: web and worker read the key prefix "${DEFAULT_PREFIX}", not "${chosen}": they will not see what this restored.\n`,
        };
  if (taken === DEFAULT_PREFIX) return { prefix: taken };
  throw new AppError(
    "prefix_mismatch",
    `Nothing was restored: this backup was taken under the key prefix "${taken}", but web and worker read "${DEFAULT_PREFIX}". Pass --prefix ${DEFAULT_PREFIX} to restore it where the app reads it, or --prefix ${taken} to restore it as it was.`,
  );
}

/**
 * `insights-digest restore [--prefix NAME] < FILE`: reads a backup from stdin, checks all of it
 * before writing anything (format version, checksum, keys, records, every sealed secret opening with
 * ENCRYPTION_KEYS), writes it under the prefix it was taken under (or --prefix), then reconciles the
 * time slots' job schedulers as a worker's start does, so the restored subscriptions run without
 * waiting for one. Restoring the same file again changes nothing more.
 */
export async function run(args: string[]): Promise<number> {
  const { prefix: chosen, replace } = restoreArgs(args);
  const config = loadConfig("restore");
  const { redisUrl, keyring } = config;
  if (!redisUrl || !keyring) throw new AppError("config", "restore needs REDIS_URL and ENCRYPTION_KEYS");
  if (process.stdin.isTTY)
    throw new AppError("usage", "restore reads a backup from stdin: insights-digest restore < FILE");
  const { header, records } = parseBackup(await text(process.stdin));
  const { prefix, note } = targetPrefix(chosen, header.prefix);
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
    const where = `prefix "${prefix}" on ${redisHost(redisUrl)}`;
    const plan = await planRestore(redis, keys, checked);
    if (conflicts(plan) > 0 && !replace) throw notEmpty(plan, where);
    await deleteAbsent(redis, plan);
    const counts = await writeRecords(redis, plan.write);
    const slots = await runtime.subscriptions.reconcile();
    const from = header.prefix === prefix ? "" : `prefix "${header.prefix}", `;
    const replaced = [
      countsLine(plan.overwritten) && `${countsLine(plan.overwritten)} overwritten`,
      countsLine(plan.absentCounts) && `${countsLine(plan.absentCounts)} deleted`,
    ].filter(Boolean);
    const removed = slots.schedulersRemoved > 0 ? `, ${slots.schedulersRemoved} removed` : "";
    process.stdout.write(
      `restore: ${countsLine(counts) || "nothing"} into ${redisHost(redisUrl)} (prefix "${prefix}", backup of ${from}${header.createdAt})${plan.unchanged > 0 ? `, ${plan.unchanged} already there` : ""}${replaced.length > 0 ? `; replaced: ${replaced.join(", ")}` : ""}; ${slots.slots} time slots, ${slots.schedulersEnsured} schedulers made${removed}\n`,
    );
    if (note) process.stderr.write(note);
    return 0;
  } finally {
    await runtime.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}
