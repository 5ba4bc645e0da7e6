/**
 * One Redis key in a backup: its name without the deployment's prefix, its type, its value as stored,
 * and `x`, when it expires (ms since the epoch), absent for a key that does not.
 */
export type BackupRecord = (
  | { k: string; t: "hash"; v: Record<string, string> }
  | { k: string; t: "set"; v: string[] }
  | { k: string; t: "string"; v: string }
) & { x?: number };
