import type { KeyScheme } from "./keys.ts";

/**
 * What a backup holds, decided once for every key family the scheme (keys.ts) can build: a record
 * that cannot be rebuilt is backed up; anything else is declared derivable, with why losing it is
 * harmless. A test walks every builder of the scheme and fails on one that is in neither list, so a
 * new kind of record cannot be left out of backups by omission.
 */

/** The Redis types a backup copies. */
export type BackupType = "hash" | "set" | "string";

/** The workspace key kinds (the segment after a workspace's namespace) a backup holds, by their type. */
export const BACKUP_KINDS = {
  /** The Bolt installation: plain fields and sealed bot tokens. */
  installation: "hash",
  /** The sealed platform API key. */
  apikey: "hash",
  /** A subscription with its run state (history, alert state, the message later runs edit). */
  sub: "hash",
  /** Subscription id → channel. */
  idx: "hash",
  /** A time slot's members in the workspace. */
  slot: "hash",
  /** The workspace's settings (the chart setting). */
  settings: "hash",
  /** The message of an alert's latest episode, which its later states redraw. */
  alertmsg: "string",
  /** Each person's vote on an alert's episodes (the counters in the subscription depend on it). */
  alertfb: "hash",
  /** What a posted button could not carry (an Adjust form, a proposal), read when it is pressed. */
  draft: "string",
  /** A proposal's Confirm claim: once restored, a press of an old Confirm still makes no second subscription. */
  askconfirm: "string",
} as const satisfies Record<string, BackupType>;

/** The kind of a time slot's set of workspaces, the one backed-up key outside any workspace. */
export const SLOT_WORKSPACES = "slot-workspaces";

export type BackupKind = keyof typeof BACKUP_KINDS | typeof SLOT_WORKSPACES;

/** A key a backup holds: its kind and Redis type. */
export interface BackedUp {
  kind: BackupKind;
  type: BackupType;
}

/** Whether `key` (with the prefix) is one a backup holds, and as what; null when not. */
export function backupKindOf(keys: KeyScheme, key: string): BackedUp | null {
  if (keys.parseSlotKey(key) !== null) return { kind: SLOT_WORKSPACES, type: "set" };
  const kind = keys.parse(key)?.kind;
  if (kind === undefined || !Object.hasOwn(BACKUP_KINDS, kind)) return null;
  return { kind: kind as keyof typeof BACKUP_KINDS, type: BACKUP_KINDS[kind as keyof typeof BACKUP_KINDS] };
}

/**
 * Each builder of the key scheme: `backup` (every key it builds is one backupKindOf selects),
 * `derivable` with the reason nothing is lost without it, or `notAKey` for the scheme's patterns,
 * parsers and prefixes. TypeScript keeps this complete: a builder added to keys.ts without an entry
 * here does not compile.
 */
export type KeyFamilyFate = "backup" | { derivable: string } | { notAKey: string };

export const KEY_FAMILIES = {
  namespace: { notAKey: "the start of every key of a workspace" },
  installation: "backup",
  apiKey: "backup",
  sealed: "backup",
  user: { derivable: "a cached users.info reply, asked of Slack again when missing" },
  subscription: "backup",
  alertMessage: "backup",
  alertFeedback: "backup",
  subscriptionIndex: "backup",
  slotMembers: "backup",
  deliveryClaims: {
    derivable:
      "one period's delivery claim (36 h); restored schedulers run from the next period, and --replace keeps the target's claims",
  },
  pacing: { derivable: "Slack rate-limit counters, refilled within a minute" },
  insightsCache: { derivable: "a cached analytics reply, asked again when missing" },
  unfurl: { derivable: "a link unfurl's blocks for one day, rebuilt on the next link" },
  insightsCacheIndex: { derivable: "the order of the cached analytics replies, rebuilt as they are" },
  introspection: { derivable: "an endpoint's introspection, asked again when missing" },
  lock: { derivable: "a mutex held for seconds" },
  settings: "backup",
  eventsLimited: { derivable: "Slack withholding events for the current minute" },
  channelState: { derivable: "whether the app can post in a channel, asked of Slack again" },
  draft: "backup",
  proposalClaim: "backup",
  alertRecordPatterns: { notAKey: "SCAN patterns" },
  deliveryLog: {
    derivable: "the operators' log of the last 48 h of verdicts; it fills again as deliveries run",
  },
  failingWorkspaces: { derivable: "the last hour's failing workspaces, counted again from new verdicts" },
  dmChannel: { derivable: "the id of the app's DM with a person, which conversations.open gives again" },
  slotWorkspaces: "backup",
  slotWarm: { derivable: "a mark held while one run of a slot is warmed" },
  allSlotsPattern: { notAKey: "a SCAN pattern" },
  parseSlotKey: { notAKey: "reads a key back" },
  drivers: { derivable: "a shared drivers result kept for minutes, its lock and notice channel" },
  globalLock: { derivable: "a process-wide mutex held for seconds" },
  workspaceKeyPattern: { notAKey: "a SCAN pattern" },
  enterpriseKeyPatterns: { notAKey: "SCAN patterns" },
  allWorkspacesPattern: { notAKey: "a SCAN pattern" },
  parse: { notAKey: "reads a key back" },
} as const satisfies { [K in Exclude<keyof KeyScheme, "prefix">]: KeyFamilyFate };
