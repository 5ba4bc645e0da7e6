import { randomBytes } from "node:crypto";
import { type WorkspaceRef, workspaceIds } from "../store/keys.ts";

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const SUB_ID = /^[a-z0-9]{4,16}$/;

/**
 * A new subscription id: 8 characters of a-z0-9 (≈ 41 bits), short enough to type in
 * `/insights pause <id>`, url-safe and free of ':' so it can go into keys and scheduler ids.
 */
export function newSubscriptionId(): string {
  const bytes = randomBytes(8);
  let id = "";
  // 256 % 36 = 4: the bias towards the first four letters is negligible for an id.
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}

/** Whether `id` has the shape of an id we make (a cheap check before it goes into a key). */
export function isSubscriptionId(id: unknown): id is string {
  return typeof id === "string" && SUB_ID.test(id);
}

/**
 * The BullMQ job scheduler id of a subscription: `<enterprise|->.<team|->.<subId>`. No ':' (BullMQ
 * keys are colon-separated); Slack ids and our ids never contain '.', so it splits back unambiguously.
 */
export function schedulerIdFor(ref: WorkspaceRef, subId: string): string {
  const ids = workspaceIds(ref);
  return `${ids.enterprise}.${ids.team}.${subId}`;
}

function refOf(enterprise: string, team: string): WorkspaceRef {
  const e = enterprise === "-" ? undefined : enterprise;
  const t = team === "-" ? undefined : team;
  if (t === undefined) return { enterpriseId: e, isEnterpriseInstall: true };
  return e === undefined ? { teamId: t } : { enterpriseId: e, teamId: t };
}

/** The ref reduced to the fields that identify it, without undefined ones (small job data, stable equality). */
export function compactRef(ref: WorkspaceRef): WorkspaceRef {
  const ids = workspaceIds(ref);
  return refOf(ids.enterprise, ids.team);
}

/** Inverse of {@link schedulerIdFor}; null for ids that are not ours. */
export function parseSchedulerId(schedulerId: string): { ref: WorkspaceRef; subId: string } | null {
  const parts = schedulerId.split(".");
  if (parts.length !== 3) return null;
  const [enterprise, team, subId] = parts as [string, string, string];
  if (!isSubscriptionId(subId)) return null;
  try {
    return { ref: compactRef(refOf(enterprise, team)), subId };
  } catch {
    return null;
  }
}
