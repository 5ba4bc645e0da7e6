import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import type { BackupRecord } from "./backup-format.ts";
import { open } from "./crypto.ts";
import { type KeyScheme, SEALED_FIELD_PREFIX, type WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import { scanKeys } from "./scan.ts";

/**
 * What a backup holds, by the kind of workspace key, and how a restore writes it back: `replace`d
 * whole (a record), or `merge`d field by field (an index or a slot's members, which a target may
 * already hold entries of). Everything else in Redis is rebuilt or short-lived: delivery claims (36 h),
 * the operators' delivery log (48 h, outside any workspace), caches, locks, pacing counters, BullMQ's jobs and schedulers (the worker's reconcile, which a restore
 * also runs, makes a scheduler per slot). A new kind of lasting record belongs in this table.
 */
export const BACKUP_KINDS = {
  /** The Bolt installation: plain fields and sealed bot tokens. */
  installation: "replace",
  /** The sealed platform API key. */
  apikey: "replace",
  /** A subscription with its run state (history, alert state, the message later runs edit). */
  sub: "replace",
  /** Subscription id → channel. */
  idx: "merge",
  /** A time slot's members in the workspace. */
  slot: "merge",
} as const;
type BackupKind = keyof typeof BACKUP_KINDS;

const kindOf = (kind: string): BackupKind | null =>
  Object.hasOwn(BACKUP_KINDS, kind) ? (kind as BackupKind) : null;

/** A backup record checked against the key scheme: whose it is, and how it is written back. */
export interface CheckedRecord {
  record: BackupRecord;
  /** The full key under the target prefix. */
  key: string;
  /** The workspace (null for a slot's set of workspaces). */
  ref: WorkspaceRef | null;
  kind: BackupKind | "slot-workspaces";
  /** The part of the key after the kind (a subscription's id). */
  rest: string[];
}

/**
 * Every key a backup holds, in key order: the workspaces' records (BACKUP_KINDS) and each slot's set
 * of workspaces. Keys are read one by one after the SCAN (on a cluster, from every master); one that
 * disappears meanwhile is left out.
 */
export async function* dumpRecords(redis: RedisClient, keys: KeyScheme): AsyncGenerator<BackupRecord> {
  const names = new Set<string>();
  for await (const page of scanKeys(redis, keys.allWorkspacesPattern()))
    for (const key of page) if (kindOf(keys.parse(key)?.kind ?? "")) names.add(key);
  for await (const page of scanKeys(redis, keys.allSlotsPattern()))
    for (const key of page) if (keys.parseSlotKey(key)) names.add(key);
  const relative = (key: string) => key.slice(keys.prefix.length + 1);
  for (const key of [...names].sort()) {
    if (keys.parseSlotKey(key)) {
      const members = (await redis.smembers(key)).sort();
      if (members.length > 0) yield { k: relative(key), t: "set", v: members };
      continue;
    }
    // Fields in name order: Redis returns a large hash's in any order, and equal state should make
    // an equal file.
    const fields = Object.entries(await redis.hgetall(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (fields.length > 0) yield { k: relative(key), t: "hash", v: Object.fromEntries(fields) };
  }
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
    if (o.keys.parseSlotKey(key) !== null) {
      if (record.t !== "set") throw refused(`${where} is a slot's workspaces but not a set.`);
      return { record, key, ref: null, kind: "slot-workspaces", rest: [] };
    }
    const parsed = o.keys.parse(key);
    const kind = kindOf(parsed?.kind ?? "");
    if (!parsed || !kind) throw refused(`${where} is not a key a backup holds.`);
    if (record.t !== "hash") throw refused(`${where} should be a hash.`);
    const checked: CheckedRecord = { record, key, ref: parsed.ref, kind, rest: parsed.rest };
    for (const [field, envelope] of Object.entries(record.v)) {
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

/** What a restore wrote, by kind. */
export type RestoreCounts = Record<CheckedRecord["kind"], number>;

/**
 * Writes checked records: a record replaces the key of the same name (so restoring twice leaves the
 * same state), an index or slot merges its fields into what is there, a slot's set adds its members.
 * Nothing else in the target is touched. Every write names one key, so a cluster needs no cross-slot
 * command.
 */
export async function writeRecords(
  redis: RedisClient,
  checked: readonly CheckedRecord[],
): Promise<RestoreCounts> {
  const counts: RestoreCounts = { installation: 0, apikey: 0, sub: 0, idx: 0, slot: 0, "slot-workspaces": 0 };
  const write = async (c: CheckedRecord) => {
    const { record, key } = c;
    if (record.t === "set") await redis.sadd(key, ...record.v);
    else if (c.kind !== "slot-workspaces" && BACKUP_KINDS[c.kind] === "replace") {
      const replies = await redis.multi().del(key).hset(key, record.v).exec();
      const failed = replies?.find(([err]) => err)?.[0];
      if (!replies || failed) throw failed ?? new Error(`the write of ${c.kind} was discarded`);
    } else await redis.hset(key, record.v);
    counts[c.kind]++;
  };
  // A few writes in flight at a time: fast, without queueing a whole deployment in the client.
  for (let i = 0; i < checked.length; i += 50) await Promise.all(checked.slice(i, i + 50).map(write));
  return counts;
}
