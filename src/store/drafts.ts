import { randomId } from "../random-id.ts";
import type { KeyScheme, WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * What a button cannot carry (Slack holds 2,000 characters in a button's value): an answer's Adjust
 * form with many names, a proposed subscription with many filters. It is kept under a random id of
 * the workspace, and the button carries the id. A kept draft lives as long as the button is meant to
 * be pressed (the days an answer's buttons are offered for); after that the button says to ask again.
 */

/** How long a draft is kept [30 days]. */
export const DRAFT_TTL_MS = 30 * 86_400_000;

type Deps = { redis: RedisClient; keys: KeyScheme };

/** Keeps `text` and returns the id a button carries. */
export async function keepDraft(
  deps: Deps,
  ref: WorkspaceRef,
  text: string,
  ttlMs = DRAFT_TTL_MS,
): Promise<string> {
  const id = randomId();
  await deps.redis.set(deps.keys.draft(ref, id), text, "PX", ttlMs);
  return id;
}

/** The text kept under `id`, or null when there is none (expired, or never this workspace's). */
export function readDraft(deps: Deps, ref: WorkspaceRef, id: string): Promise<string | null> {
  return deps.redis.get(deps.keys.draft(ref, id));
}
