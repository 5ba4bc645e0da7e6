import { AppError } from "../errors.ts";
import { type CheckedRecord, countsLine, dumpRecords, noCounts, type RestoreCounts } from "./backup.ts";
import type { BackupRecord } from "./backup-format.ts";
import { type BackupKind, backupKindOf } from "./backup-scope.ts";
import type { KeyScheme } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * What a restore would change in the prefix it writes to, found by reading every record a backup
 * holds there first. A restore never changes what it did not come from unless told (--replace): a
 * target that holds only records equal to the file's (nothing, or an interrupted restore of the same
 * file) takes the rest; one that holds anything else is refused, saying how many records of each kind
 * would be overwritten and deleted.
 */
export interface RestorePlan {
  /** Records the target lacks or holds with other content: what the restore writes. */
  write: CheckedRecord[];
  /** Of those, the ones the target holds with other content, by kind. */
  overwritten: RestoreCounts;
  /** Keys of a kind a backup holds that the target has and the file has not: what --replace deletes. */
  absent: { key: string; kind: BackupKind }[];
  absentCounts: RestoreCounts;
  /** Records the target already holds as the file has them. */
  unchanged: number;
}

/** A record's value in a form that compares equal whatever order Redis or the file gave. */
function canonical(r: BackupRecord): string {
  if (r.t === "set") return JSON.stringify(["set", [...r.v].sort()]);
  if (r.t === "hash")
    return JSON.stringify(["hash", Object.entries(r.v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
  return JSON.stringify(["string", r.v]);
}

export async function planRestore(
  redis: RedisClient,
  keys: KeyScheme,
  checked: readonly CheckedRecord[],
): Promise<RestorePlan> {
  const held = new Map<string, string>();
  for await (const r of dumpRecords(redis, keys)) held.set(`${keys.prefix}:${r.k}`, canonical(r));
  const plan: RestorePlan = {
    write: [],
    overwritten: noCounts(),
    absent: [],
    absentCounts: noCounts(),
    unchanged: 0,
  };
  const inFile = new Set<string>();
  for (const c of checked) {
    inFile.add(c.key);
    const there = held.get(c.key);
    if (there === canonical(c.record)) plan.unchanged++;
    else {
      plan.write.push(c);
      if (there !== undefined) plan.overwritten[c.kind]++;
    }
  }
  for (const key of held.keys()) {
    const kind = backupKindOf(keys, key)?.kind;
    if (inFile.has(key) || !kind) continue;
    plan.absent.push({ key, kind });
    plan.absentCounts[kind]++;
  }
  return plan;
}

/** How many records a plan would overwrite or delete. */
export const conflicts = (plan: RestorePlan) =>
  Object.values(plan.overwritten).reduce((a, b) => a + b, 0) + plan.absent.length;

/** The refusal of a restore that would overwrite or delete records without --replace. */
export function notEmpty(plan: RestorePlan, where: string): AppError {
  const parts = [
    countsLine(plan.overwritten) &&
      `${countsLine(plan.overwritten)} differ from the file's and would be overwritten`,
    countsLine(plan.absentCounts) &&
      `${countsLine(plan.absentCounts)} are not in the file and would be deleted`,
  ].filter(Boolean);
  return new AppError(
    "restore_target_not_empty",
    `Nothing was restored: ${where} already holds records this file would change: ${parts.join("; ")}. restore --replace makes it equal to the file (the schedulers follow); --prefix NAME restores into another prefix.`,
  );
}

/** Deletes what a replace leaves out, key by key (a cluster needs no cross-slot command). */
export async function deleteAbsent(redis: RedisClient, plan: RestorePlan): Promise<void> {
  for (let i = 0; i < plan.absent.length; i += 50)
    await Promise.all(plan.absent.slice(i, i + 50).map(({ key }) => redis.del(key)));
}
