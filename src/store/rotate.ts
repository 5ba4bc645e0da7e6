import type { KeyringEntry } from "../config.ts";
import { isAppError } from "../errors.ts";
import { type Logger, silentLogger } from "../log.ts";
import { assertKeyring, envelopeKeyId, open, seal } from "./crypto.ts";
import { createKeyScheme, SEALED_FIELD_PREFIX, SEALED_KINDS, type WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import { scanKeys } from "./scan.ts";

/**
 * Re-encrypts every sealed value that is not under the newest key. Each value is swapped with a
 * compare-and-set, so a value written meanwhile (by a web process) is never overwritten with the
 * stale plaintext read before it.
 */

export interface RotateCounts {
  /** Sealed values found. */
  scanned: number;
  rotated: number;
  alreadyCurrent: number;
  /** Unreadable values (unknown key id, tampered, malformed); left untouched. */
  failed: number;
  /** Deleted while rotation ran (e.g. an uninstall); nothing to do. */
  skipped: number;
}

export interface RotateOptions {
  redis: RedisClient;
  /** Newest first: values not under [0] are re-sealed with it. */
  keyring: readonly KeyringEntry[];
  prefix?: string;
  logger?: Logger;
  /** SCAN COUNT hint. */
  batchSize?: number;
}

// Swap only if the field still holds exactly what we decrypted.
const COMPARE_AND_SET = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
  return 1
end
return 0`;

const MAX_ATTEMPTS = 3;
type Outcome = "rotated" | "alreadyCurrent" | "failed" | "skipped";

/**
 * Idempotent: a second run finds everything current and rotates nothing.
 *
 * @example
 * const counts = await rotateKeys({ redis, keyring: config.keyring, logger });
 */
export async function rotateKeys(options: RotateOptions): Promise<RotateCounts> {
  const { redis, keyring } = options;
  assertKeyring(keyring);
  const logger = options.logger ?? silentLogger();
  const keys = createKeyScheme({ prefix: options.prefix });
  const newest = (keyring[0] as KeyringEntry).id;
  const counts: RotateCounts = { scanned: 0, rotated: 0, alreadyCurrent: 0, failed: 0, skipped: 0 };
  const seen = new Set<string>();
  const sealedKinds: readonly string[] = SEALED_KINDS;

  async function rotateOne(key: string, field: string, ref: WorkspaceRef, stored: string): Promise<Outcome> {
    const purpose = field.slice(SEALED_FIELD_PREFIX.length);
    let envelope = stored;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (envelopeKeyId(envelope) === newest) return "alreadyCurrent";
      let next: string;
      try {
        next = seal(keyring, open(keyring, envelope, { ref, purpose }), { ref, purpose });
      } catch (err) {
        const code = isAppError(err) ? err.code : "unexpected";
        logger.warn({ key, purpose, keyId: envelopeKeyId(envelope), code }, "sealed value left as is");
        return "failed";
      }
      if ((await redis.eval(COMPARE_AND_SET, 1, key, field, envelope, next)) === 1) return "rotated";
      const current = await redis.hget(key, field);
      if (current === null) return "skipped";
      envelope = current;
    }
    logger.warn({ key, purpose }, "sealed value kept changing during rotation");
    return "failed";
  }

  for await (const page of scanKeys(redis, keys.allWorkspacesPattern(), options.batchSize)) {
    const targets = page.flatMap((key) => {
      const parsed = keys.parse(key);
      if (!parsed || parsed.rest.length > 0 || !sealedKinds.includes(parsed.kind) || seen.has(key)) return [];
      seen.add(key);
      return [{ key, ref: parsed.ref }];
    });
    if (targets.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const t of targets) pipeline.hgetall(t.key);
    const hashes = (await pipeline.exec()) ?? [];
    for (const [i, t] of targets.entries()) {
      const [err, hash] = hashes[i] ?? [new Error("no reply"), null];
      if (err || !hash) {
        logger.warn({ key: t.key, err }, "cannot read sealed hash");
        continue;
      }
      for (const [field, value] of Object.entries(hash as Record<string, string>)) {
        if (!field.startsWith(SEALED_FIELD_PREFIX)) continue;
        counts.scanned++;
        counts[await rotateOne(t.key, field, t.ref, value)]++;
      }
    }
  }
  logger.info({ ...counts, keyId: newest }, "key rotation finished");
  return counts;
}
