import { createHash } from "node:crypto";
import { AppError } from "../errors.ts";

/**
 * The whole Redis key scheme. Every key of a workspace starts with its namespace,
 * `{prefix}:{w:<team>}:<enterprise|->` for a team and `{prefix}:{w:<enterprise>}:org` for an org-wide
 * install. The `{w:…}` part is a Redis Cluster hash tag: all keys of a workspace hash to one slot, so
 * a workspace's multi-key writes (MULTI, scripts) work on a cluster, and workspaces spread over the
 * masters. An uninstall finds everything of a workspace with one SCAN pattern. Only validated ids and
 * our own tokens go into keys; user text is hashed first (`digestToken`).
 */

/** Who a record belongs to, as Bolt describes an installation. */
export interface WorkspaceRef {
  enterpriseId?: string;
  teamId?: string;
  /** Org-wide install: the record belongs to the enterprise, not to one team. */
  isEnterpriseInstall?: boolean;
}

/** The ids of a workspace as they appear in keys and AAD: an id, or "-" for none. */
export interface WorkspaceIds {
  enterprise: string;
  team: string;
}

/** Hashes that may hold sealed fields (`enc:<purpose>`); rotation looks only at these. */
export const SEALED_KINDS = ["installation", "apikey"] as const;
export type SealedKind = (typeof SEALED_KINDS)[number];

/** Hash field prefix marking an encrypted envelope; the rest of the field name is its purpose. */
export const SEALED_FIELD_PREFIX = "enc:";

export const DEFAULT_PREFIX = "insights";

const SLACK_ID = /^[A-Z0-9]{1,32}$/;
const TOKEN = /^[A-Za-z0-9_.-]{1,128}$/;
const PURPOSE = /^[a-z][a-z0-9_]{0,31}$/;
// No glob metacharacters (* ? [ ] \) so namespaces can go into SCAN MATCH unescaped, and no braces:
// the first {…} of a key is its hash tag, which must be the workspace's.
const PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/;
const NONE = "-";

/** A value that must not go into a key. The message never echoes the value. */
export function invalidId(what: string, expected: string): AppError<"invalid_id"> {
  return new AppError("invalid_id", `Invalid ${what}: expected ${expected}`, { details: { what } });
}

function slackId(what: string, value: string | undefined): string {
  if (typeof value !== "string" || !SLACK_ID.test(value)) throw invalidId(what, "a Slack id (A-Z, 0-9)");
  return value;
}

function token(what: string, value: string): string {
  if (typeof value !== "string" || !TOKEN.test(value))
    throw invalidId(what, "1-128 characters of A-Z, a-z, 0-9, _, . or -");
  return value;
}

/** Checks a sealed-value purpose (`api_key`, `bot_token`, …); it is part of field names and AAD. */
export function checkPurpose(purpose: string): string {
  if (typeof purpose !== "string" || !PURPOSE.test(purpose))
    throw invalidId("purpose", "lower-case letters, digits and _");
  return purpose;
}

/** Normalises a ref: org-wide installs drop the team; a ref with neither id is rejected. */
export function workspaceIds(ref: WorkspaceRef): WorkspaceIds {
  if (ref.isEnterpriseInstall) return { enterprise: slackId("enterpriseId", ref.enterpriseId), team: NONE };
  const enterprise = ref.enterpriseId === undefined ? NONE : slackId("enterpriseId", ref.enterpriseId);
  return { enterprise, team: slackId("teamId", ref.teamId) };
}

/** The ref of ids as keys and scheduler ids spell them ("-" for none); null when they name nothing valid. */
export function refFromIds(enterprise: string, team: string): WorkspaceRef | null {
  const e = enterprise === NONE ? undefined : enterprise;
  const t = team === NONE ? undefined : team;
  if ((e !== undefined && !SLACK_ID.test(e)) || (t !== undefined && !SLACK_ID.test(t))) return null;
  if (t === undefined) return e === undefined ? null : { enterpriseId: e, isEnterpriseInstall: true };
  return e === undefined ? { teamId: t } : { enterpriseId: e, teamId: t, isEnterpriseInstall: false };
}

/** `<enterprise|->.<team|->`: a workspace as one short, key-safe string (registry members, scheduler ids). */
export function workspaceLabel(ref: WorkspaceRef): string {
  const ids = workspaceIds(ref);
  return `${ids.enterprise}.${ids.team}`;
}

/** Inverse of {@link workspaceLabel}; null for anything else. */
export function parseWorkspaceLabel(label: string): WorkspaceRef | null {
  const parts = label.split(".");
  return parts.length === 2 ? refFromIds(parts[0] as string, parts[1] as string) : null;
}

/**
 * A short, key-safe token for arbitrary text (query variables, endpoint URLs), so user text
 * never reaches a key.
 */
export function digestToken(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\u0000")).digest("base64url").slice(0, 32);
}

/** The hash field that holds the envelope for a purpose. */
export function sealedField(purpose: string): string {
  return `${SEALED_FIELD_PREFIX}${checkPurpose(purpose)}`;
}

/** What `parse` recovers from a workspace key. */
export interface ParsedKey {
  ref: WorkspaceRef;
  /** First segment after the namespace: `apikey`, `sub`, `claims`, … */
  kind: string;
  /** Remaining segments. */
  rest: string[];
}

export type KeyScheme = ReturnType<typeof createKeyScheme>;

const ORG = "org";

/**
 * Builds the key functions for one prefix.
 *
 * @example
 * const keys = createKeyScheme({ prefix: "insights" });
 * keys.apiKey({ enterpriseId: "E1", teamId: "T2" }); // "insights:{w:T2}:E1:apikey"
 * keys.apiKey({ enterpriseId: "E1", isEnterpriseInstall: true }); // "insights:{w:E1}:org:apikey"
 */
export function createKeyScheme(options: { prefix?: string } = {}) {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  if (!PREFIX.test(prefix)) throw invalidId("key prefix", "1-64 characters of A-Z, a-z, 0-9, _ . : -");
  const root = `${prefix}:{w:`;
  const ns = (ref: WorkspaceRef) => {
    const ids = workspaceIds(ref);
    return ids.team === NONE ? `${root}${ids.enterprise}}:${ORG}` : `${root}${ids.team}}:${ids.enterprise}`;
  };
  const parseRe = new RegExp(
    `^${prefix.replace(/[.]/g, "\\.")}:\\{w:([A-Z0-9]{1,32})\\}:([A-Z0-9]{1,32}|-|${ORG}):(.+)$`,
  );
  return {
    prefix,
    /** Every key of the workspace starts with this plus ":". */
    namespace: ns,
    /** Hash: the Bolt installation (plain fields + sealed tokens). */
    installation: (ref: WorkspaceRef) => `${ns(ref)}:installation`,
    /** Hash: the sealed platform API key and who saved it. */
    apiKey: (ref: WorkspaceRef) => `${ns(ref)}:apikey`,
    /** The hash of a sealed kind, for stores that take the kind as data. */
    sealed: (kind: SealedKind, ref: WorkspaceRef) => `${ns(ref)}:${kind}`,
    /** String (JSON): cached users.info reply. */
    user: (ref: WorkspaceRef, userId: string) => `${ns(ref)}:user:${slackId("userId", userId)}`,
    /** Hash: one subscription. */
    subscription: (ref: WorkspaceRef, subId: string) => `${ns(ref)}:sub:${token("subscription id", subId)}`,
    /**
     * String (JSON): the message of an alert's latest episode, kept so every state change redraws it.
     * No expiry: it lives as long as the alert.
     */
    alertMessage: (ref: WorkspaceRef, subId: string) =>
      `${ns(ref)}:alertmsg:${token("subscription id", subId)}`,
    /**
     * Hash: `<episode>:<user>` → `+` or `-`, each person's feedback on an alert's messages. No expiry:
     * it lives as long as the alert and the counters on its record.
     */
    alertFeedback: (ref: WorkspaceRef, subId: string) =>
      `${ns(ref)}:alertfb:${token("subscription id", subId)}`,
    /** Hash: subscription id → channel id, for every subscription of the workspace. */
    subscriptionIndex: (ref: WorkspaceRef) => `${ns(ref)}:idx`,
    /** Hash: subscription id → channel id, for the workspace's active subscriptions in one time slot. */
    slotMembers: (ref: WorkspaceRef, slotId: string) => `${ns(ref)}:slot:${token("slot id", slotId)}`,
    /** Hash with TTL: subscription id → delivery claim, for one delivery period (e.g. `20261102T080000Z`). */
    deliveryClaims: (ref: WorkspaceRef, period: string) => `${ns(ref)}:claims:${token("period", period)}`,
    /** Prefix of the workspace's pacing counters (rate limiter keys). */
    pacing: (ref: WorkspaceRef) => `${ns(ref)}:pace`,
    /** String with TTL: a cached insights reply; `digest` from `digestToken(…)`. */
    insightsCache: (ref: WorkspaceRef, digest: string) =>
      `${ns(ref)}:insights:${token("cache digest", digest)}`,
    /** String with TTL: the blocks of a link unfurl; `digest` from `digestToken(url, tz, day)`. */
    unfurl: (ref: WorkspaceRef, digest: string) => `${ns(ref)}:unfurl:${token("unfurl digest", digest)}`,
    /** Sorted set: the workspace's cached insights replies by time written, to bound how many are kept. */
    insightsCacheIndex: (ref: WorkspaceRef) => `${ns(ref)}:insights`,
    /** String with TTL: introspection result for an endpoint; `digest` from `digestToken(url)`. */
    introspection: (ref: WorkspaceRef, digest: string) =>
      `${ns(ref)}:introspection:${token("endpoint digest", digest)}`,
    /** String with TTL: a mutex (SET NX PX). */
    lock: (ref: WorkspaceRef, name: string) => `${ns(ref)}:lock:${token("lock name", name)}`,
    /** Hash: the workspace's settings an admin chose (`chart`: native, png or off). */
    settings: (ref: WorkspaceRef) => `${ns(ref)}:settings`,
    /** Set while Slack withholds the workspace's events (app_rate_limited); expires with that minute. */
    eventsLimited: (ref: WorkspaceRef) => `${ns(ref)}:events-limited`,
    /** String with TTL: whether the app can post in a channel (`ok`, `not_in_channel`…), as last checked. */
    channelState: (ref: WorkspaceRef, channelId: string) =>
      `${ns(ref)}:chan:${slackId("channelId", channelId)}`,
    /**
     * String with TTL: what a button could not carry (an answer's Adjust form, a proposed
     * subscription), under the random id the button carries instead.
     */
    draft: (ref: WorkspaceRef, id: string) => `${ns(ref)}:draft:${token("draft id", id)}`,
    /** String with TTL: the claim of a proposal's Confirm, so one proposal makes one subscription. */
    proposalClaim: (ref: WorkspaceRef, proposalId: string) =>
      `${ns(ref)}:askconfirm:${token("proposal id", proposalId)}`,
    /** String: the id of the app's direct message with a person (it never changes). */
    dmChannel: (ref: WorkspaceRef, userId: string) => `${ns(ref)}:dm:${slackId("userId", userId)}`,
    /**
     * Set: labels of the workspaces with members in a time slot; its own hash tag, so slots spread
     * over a cluster. A superset: the fan-out skips and prunes workspaces that have left.
     */
    slotWorkspaces: (slotId: string) => `${prefix}:slot:{s:${token("slot id", slotId)}}:ws`,
    /** String with TTL: held by the one process that warms a slot ahead of one fire (its period). */
    slotWarm: (slotId: string, period: string) =>
      `${prefix}:slot:{s:${token("slot id", slotId)}}:warm:${token("period", period)}`,
    /** SCAN MATCH pattern for every time slot's workspace set. */
    allSlotsPattern: () => `${prefix}:slot:{s:*}:ws`,
    /** Parses a slot's workspace-set key back to the slot id. */
    parseSlotKey(key: string): string | null {
      const m = /^(.*):slot:\{s:([A-Za-z0-9_.-]{1,128})\}:ws$/.exec(key);
      return m && m[1] === prefix ? (m[2] as string) : null;
    },
    /**
     * The keys of one analytics account's shared drivers results, outside any workspace: `account` is
     * a keyed hash of its API key (never the key), and its hash tag, so an account's result, lock and
     * notice channel sit in one slot and accounts spread over a cluster. `digest` names the request.
     */
    drivers: (account: string, digest: string) => {
      const base = `${prefix}:drivers:{a:${token("account tag", account)}}`;
      const d = token("drivers digest", digest);
      return { result: `${base}:r:${d}`, lock: `${base}:l:${d}`, channel: `${base}:done:${d}` };
    },
    /**
     * The delivery log of one clock hour (`hour` is `YYYYMMDDTHH`, UTC), outside any workspace and
     * expiring about 48 h after its last write: `counts` (hash: `<period>|<workspace>|<outcome>|<code>`
     * → how many verdicts) and `failures` / `skips` (lists of the newest verdicts of that kind, as JSON).
     * Its own hash tag per hour, so a script writes an hour's keys together and hours spread over a
     * cluster.
     */
    deliveryLog: (hour: string) => {
      const base = `${prefix}:dlog:{h:${token("log hour", hour)}}`;
      return { counts: `${base}:n`, failures: `${base}:f`, skips: `${base}:s` };
    },
    /** Sorted set with TTL: workspace label → when it last had a delivery recorded as failed (ms). */
    failingWorkspaces: () => `${prefix}:dlog:{failing}`,
    /** String with TTL: a process-wide mutex outside any workspace (start-up migration). */
    globalLock: (name: string) => `${prefix}:lock:${token("lock name", name)}`,
    /** SCAN MATCH pattern for every key of one workspace (uninstall purge). */
    workspaceKeyPattern: (ref: WorkspaceRef) => `${ns(ref)}:*`,
    /** SCAN MATCH patterns for every key of an enterprise: its org-wide records and all its teams. */
    enterpriseKeyPatterns: (enterpriseId: string) => {
      const e = slackId("enterpriseId", enterpriseId);
      return [`${root}${e}}:${ORG}:*`, `${root}*}:${e}:*`];
    },
    /** SCAN MATCH patterns for every alert's kept message and votes, in every workspace. */
    alertRecordPatterns: () => [`${root}*}:*:alertmsg:*`, `${root}*}:*:alertfb:*`],
    /** SCAN MATCH pattern for every workspace key under this prefix. */
    allWorkspacesPattern: () => `${root}*`,
    /** Splits a workspace key back into its ref and kind; null for keys not in this scheme. */
    parse(key: string): ParsedKey | null {
      const m = parseRe.exec(key);
      if (!m) return null;
      const [, tag, second, tail] = m as unknown as [string, string, string, string];
      const ref = second === ORG ? refFromIds(tag, NONE) : refFromIds(second, tag);
      const [kind, ...rest] = tail.split(":");
      return ref && kind ? { ref, kind, rest } : null;
    },
  };
}

/** Convenience: the namespace for a ref under a prefix (default "insights"). */
export function workspaceNamespace(ref: WorkspaceRef, prefix = DEFAULT_PREFIX): string {
  return createKeyScheme({ prefix }).namespace(ref);
}

/** SCAN MATCH pattern for every key of one workspace, for SCAN-based purge. */
export function workspaceKeyPattern(ref: WorkspaceRef, prefix = DEFAULT_PREFIX): string {
  return createKeyScheme({ prefix }).workspaceKeyPattern(ref);
}
