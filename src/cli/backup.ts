import { once } from "node:events";
import { loadConfig } from "../config.ts";
import { AppError } from "../errors.ts";
import { countsLine, dumpRecords, noCounts } from "../store/backup.ts";
import { backupWriter } from "../store/backup-format.ts";
import { backupKindOf } from "../store/backup-scope.ts";
import { createKeyScheme } from "../store/keys.ts";
import { connectOnce, prefixArgs, redisHost } from "./redis-once.ts";
import { appVersion } from "./version.ts";

/** Writes a line to stdout, waiting when the pipe is full (a backup can be larger than its buffer). */
async function out(line: string): Promise<void> {
  if (!process.stdout.write(`${line}\n`)) await once(process.stdout, "drain");
}

/**
 * `insights-digest backup [--prefix NAME] > FILE`: the deployment's lasting records as JSON lines on
 * stdout (store/backup-format.ts), a summary on stderr. Sealed secrets are copied sealed: the file
 * holds no plaintext key or token, and a restore needs the same ENCRYPTION_KEYS.
 */
export async function run(args: string[]): Promise<number> {
  const { prefix } = prefixArgs("backup", args);
  const config = loadConfig("backup");
  if (!config.redisUrl) throw new AppError("config", "backup needs REDIS_URL");
  const keys = createKeyScheme({ prefix });
  const redis = await connectOnce(config.redisUrl);
  try {
    const writer = backupWriter({ createdAt: new Date().toISOString(), prefix, app: appVersion() });
    await out(writer.header());
    const counts = noCounts();
    for await (const record of dumpRecords(redis, keys)) {
      for (const line of writer.record(record)) await out(line);
      const kind = backupKindOf(keys, `${prefix}:${record.k}`)?.kind;
      if (kind) counts[kind]++;
    }
    await out(writer.trailer());
    const summary = countsLine(counts) || "nothing";
    process.stderr.write(`backup: ${summary} from ${redisHost(config.redisUrl)} (prefix "${prefix}")\n`);
    return 0;
  } finally {
    await redis.quit().catch(() => redis.disconnect());
  }
}
