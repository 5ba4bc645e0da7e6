import type { WebClient } from "@slack/web-api";
import { isDm } from "../../../templates/subscription-words.ts";
import { AppError } from "../../errors.ts";
import { codeOf } from "../../metrics.ts";

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
