import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import type { BackupRecord } from "./backup-format.ts";
import {
  BACKUP_KINDS,
  type BackupKind,
  type BackupType,
  backupKindOf,
  SLOT_WORKSPACES,
} from "./backup-scope.ts";
import { open } from "./crypto.ts";
import { type KeyScheme, SEALED_FIELD_PREFIX, type WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import { scanKeys } from "./scan.ts";

/** A backup record checked against the key scheme: whose it is, and how it is written back. */
export interface CheckedRecord {
  record: BackupRecord;
  /** The full key under the target prefix. */
  key: string;
  /** The workspace (null for a slot's set of workspaces). */
  ref: WorkspaceRef | null;
  kind: BackupKind;
  /** The part of the key after the kind (a subscription's id). */
  rest: string[];
}

/**
 * Every key a backup holds (backup-scope.ts), in key order, with its expiry when it has one. Keys are
 * read one by one after the SCAN (on a cluster, from every master); one that disappears meanwhile is
 * left out.
 */
export async function* dumpRecords(
  redis: RedisClient,
  keys: KeyScheme,
  now: () => number = Date.now,
): AsyncGenerator<BackupRecord> {
  const names = new Map<string, BackupType>();
  for (const pattern of [keys.allWorkspacesPattern(), keys.allSlotsPattern()])
    for await (const page of scanKeys(redis, pattern))
      for (const key of page) {
        const kind = backupKindOf(keys, key);
        if (kind) names.set(key, kind.type);
      }
  const expiry = expiryReader(redis, now);
  for (const key of [...names.keys()].sort()) {
    const record = await readRecord(redis, key, names.get(key) as BackupType);
    if (!record) continue;
    const x = await expiry(key);
    yield x === null ? record : { ...record, x };
  }
  function relative(key: string) {
    return key.slice(keys.prefix.length + 1);
  }
  async function readRecord(r: RedisClient, key: string, type: BackupType): Promise<BackupRecord | null> {
    const k = relative(key);
    if (type === "set") {
      const members = (await r.smembers(key)).sort();
      return members.length > 0 ? { k, t: "set", v: members } : null;
    }
    if (type === "string") {
      const v = await r.get(key);
      return v === null ? null : { k, t: "string", v };
    }
    // Fields in name order: Redis returns a large hash's in any order, and equal state should make
    // an equal file.
    const fields = Object.entries(await r.hgetall(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return fields.length > 0 ? { k, t: "hash", v: Object.fromEntries(fields) } : null;
  }
}

/**
 * When a key expires (ms since the epoch), null when it does not: PEXPIRETIME where Redis has it (7.0
 * and newer: exact, so a backup of a restore holds the same expiries), else now + PTTL.
 */
function expiryReader(redis: RedisClient, now: () => number) {
  let exact = true;
  return async (key: string): Promise<number | null> => {
    if (exact) {
      try {
        const at = await redis.pexpiretime(key);
        return at > 0 ? at : null;
      } catch (err) {
        if (!/unknown command/i.test((err as Error).message)) throw err;
        exact = false;
      }
    }
    const ttl = await redis.pttl(key);
    return ttl > 0 ? now() + ttl : null;
  };
}

const refused = (message: string) => new AppError("bad_backup", `Nothing was restored: ${message}`);

/**
 * Checks every record before anything is written: each names a key of this scheme of a kind a
 * backup holds, with the type that kind has, and every sealed secret opens with `keyring` under its
 * workspace and purpose (a restore needs the keyring the backup was sealed with). `more` adds a
 * check of its own (the subscription codec's).
 */
export function checkRecords(
  records: readonly BackupRecord[],
  o: { keys: KeyScheme; keyring: readonly KeyringEntry[]; more?: (r: CheckedRecord) => string | null },
): CheckedRecord[] {
  return records.map((record, i) => {
    const key = `${o.keys.prefix}:${record.k}`;
    const where = `record ${i + 1}`;
    const held = backupKindOf(o.keys, key);
    if (!held) throw refused(`${where} is not a key a backup holds.`);
    const { kind, type } = held;
    if (record.t !== type) throw refused(`${where} (${kind}) should be a ${type}.`);
    const parsed = kind === SLOT_WORKSPACES ? null : o.keys.parse(key);
    if (!parsed) return { record, key, ref: null, kind, rest: [] };
    const checked: CheckedRecord = { record, key, ref: parsed.ref, kind, rest: parsed.rest };
    for (const [field, envelope] of record.t === "hash" ? Object.entries(record.v) : []) {
      if (!field.startsWith(SEALED_FIELD_PREFIX)) continue;
      const purpose = field.slice(SEALED_FIELD_PREFIX.length);
      try {
        open(o.keyring, envelope, { ref: parsed.ref, purpose });
      } catch (err) {
        throw refused(
          `${where} (${kind}) holds a secret that ENCRYPTION_KEYS cannot open: ${(err as Error).message}. A restore needs the keyring the backup was sealed with.`,
        );
      }
    }
    const problem = o.more?.(checked);
    if (problem) throw refused(`${where} (${kind}): ${problem}`);
    return checked;
  });
}

/** What a restore wrote, by kind (`expired`: records whose expiry passed since the backup, not written). */
export type RestoreCounts = Record<BackupKind | "expired", number>;

/** Zero of every kind, in the order a summary names them. */
export function noCounts(): RestoreCounts {
  const counts = Object.fromEntries(Object.keys(BACKUP_KINDS).map((k) => [k, 0]));
  return { ...counts, [SLOT_WORKSPACES]: 0, expired: 0 } as RestoreCounts;
}

/** "3 installation, 2 sub, …": the kinds counted, in the order of noCounts(), leaving out zeros. */
export function countsLine(counts: RestoreCounts): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${n} ${k}`)
    .join(", ");
}

/**
 * Writes checked records, each replacing the key of its name whole (so the key ends equal to the
 * file's record); a key that expired keeps its expiry, and one whose expiry has passed is not
 * written. Nothing else in the target is touched. Every write names one key, so a cluster needs no
 * cross-slot command.
 */
export async function writeRecords(
  redis: RedisClient,
  checked: readonly CheckedRecord[],
  now: () => number = Date.now,
): Promise<RestoreCounts> {
  const counts = noCounts();
  const write = async (c: CheckedRecord) => {
    const { record, key } = c;
    if (record.x !== undefined && record.x <= now()) {
      counts.expired++;
      return;
    }
    const m = redis.multi().del(key);
    if (record.t === "set") m.sadd(key, ...record.v);
    else if (record.t === "hash") m.hset(key, record.v);
    else m.set(key, record.v);
    if (record.x !== undefined) m.pexpireat(key, record.x);
    const replies = await m.exec();
    const failed = replies?.find(([err]) => err)?.[0];
    if (!replies || failed) throw failed ?? new Error(`the write of ${c.kind} was discarded`);
    counts[c.kind]++;
  };
  // A few writes in flight at a time: fast, without queueing a whole deployment in the client.
  for (let i = 0; i < checked.length; i += 50) await Promise.all(checked.slice(i, i + 50).map(write));
  return counts;
}
