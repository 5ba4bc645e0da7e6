import type { WebClient } from "@slack/web-api";
import { isDm } from "../../../templates/subscription-words.ts";
import { AppError } from "../../errors.ts";
import { codeOf } from "../../metrics.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { AppServices } from "../services.ts";

/**
 * Personal digests go to the person's DM with the app. Its id (D…) is what chat.update needs to edit
 * a message there (a user id only works for posting), so it is opened once, when the subscription is
 * made, with conversations.open (im:write) and stored as the subscription's conversation.
 */
export async function openDm(client: WebClient, userId: string): Promise<string> {
  try {
    const res = await client.conversations.open({ users: userId });
    const id = (res.channel as { id?: unknown } | undefined)?.id;
    if (typeof id === "string" && isDm(id)) return id;
  } catch (err) {
    const code = codeOf(err);
    throw new AppError(
      "dm_unavailable",
      "I can't open a direct message with you, so a personal digest has nowhere to go. Check that the app's Messages tab is allowed in this workspace.",
      { cause: err, details: { slackError: code } },
    );
  }
  throw new AppError("dm_unavailable", "Slack did not give me a direct message conversation with you.");
}

/** Whether a subscription is a personal digest (its conversation is a DM). */
export const isPersonal = (sub: { channelId: string }) => isDm(sub.channelId);

/** The person's DM with the app from Redis, or opened once and remembered (a DM's id never changes). */
export async function dmOf(
  deps: Pick<AppServices, "redis" | "keys">,
  client: WebClient,
  ref: WorkspaceRef,
  userId: string,
): Promise<string> {
  const key = deps.keys.dmChannel(ref, userId);
  const known = await deps.redis.get(key);
  if (known && isDm(known)) return known;
  const id = await openDm(client, userId);
  await deps.redis.set(key, id);
  return id;
}

/** The DM's id if it was opened before; null otherwise (nothing asked of Slack). */
export async function knownDm(
  deps: Pick<AppServices, "redis" | "keys">,
  ref: WorkspaceRef,
  userId: string,
): Promise<string | null> {
  const known = await deps.redis.get(deps.keys.dmChannel(ref, userId));
  return known && isDm(known) ? known : null;
}
