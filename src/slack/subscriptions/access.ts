import type { WebClient } from "@slack/web-api";
import { AppError } from "../../errors.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import { canManage, type PermissionPolicy } from "../permissions.ts";
import type { SlackUser } from "../users.ts";

/**
 * Who may change a subscription, and whether a channel can take one. Shared by the slash
 * commands, the App Home buttons, the modal and the channel events, so every surface says the same.
 */

/** Managers (admins, owners, installer, allow-list) change any subscription; its owner changes their own. */
export function canChangeSubscription(
  user: SlackUser,
  sub: Pick<Subscription, "ownerId">,
  policy: PermissionPolicy,
  installerId?: string,
): boolean {
  if (user.deleted) return false;
  return canManage(user, policy, installerId) || sub.ownerId === user.id;
}

/** Throws `forbidden` unless {@link canChangeSubscription}. */
export function requireChange(
  user: SlackUser,
  sub: Pick<Subscription, "ownerId" | "id">,
  policy: PermissionPolicy,
  installerId?: string,
): void {
  if (!canChangeSubscription(user, sub, policy, installerId))
    throw new AppError(
      "forbidden",
      `Only the owner of subscription ${sub.id} or a workspace admin can change it.`,
    );
}

/** Where a channel stands for posting: the app in it and the channel live. */
export type ChannelState = "ok" | "not_in_channel" | "archived" | "not_a_channel";

const INVITE = "Invite the app with `/invite @Insights` in that channel, then try again.";

/**
 * Errors a channel's state becomes, with how to fix it; null for "ok". Messages name no channel:
 * error replies show text escaped, so a mention would come out as literal `<#C…>`.
 */
export function channelProblem(state: ChannelState): AppError | null {
  switch (state) {
    case "ok":
      return null;
    case "not_in_channel":
      return new AppError(
        "not_in_channel",
        `I'm not a member of that channel, so I can't post digests there. ${INVITE}`,
      );
    case "archived":
      return new AppError(
        "channel_archived",
        "That channel is archived. Unarchive it or choose another channel.",
      );
    case "not_a_channel":
      return new AppError(
        "bad_channel",
        "Scheduled digests go to channels. Run `/insights subscribe` in the channel that should get them.",
      );
  }
}

/**
 * Looks the channel up with the bot's token (conversations.info). A private channel the app is not
 * in is invisible to it (`channel_not_found`), which is the same fix as not being a member.
 */
export async function channelState(client: WebClient, channelId: string): Promise<ChannelState> {
  if (!/^[CG][A-Z0-9]{2,31}$/.test(channelId)) return "not_a_channel";
  try {
    const res = await client.conversations.info({ channel: channelId });
    const ch = res.channel as { is_member?: boolean; is_archived?: boolean; is_im?: boolean } | undefined;
    if (!ch || ch.is_im) return "not_a_channel";
    if (ch.is_archived) return "archived";
    return ch.is_member ? "ok" : "not_in_channel";
  } catch (err) {
    const code = (err as { data?: { error?: string } }).data?.error;
    if (code === "channel_not_found" || code === "not_in_channel") return "not_in_channel";
    throw err;
  }
}

/** Throws the channel's problem (not a member, archived, not a channel) with how to fix it. */
export async function requirePostableChannel(client: WebClient, channelId: string): Promise<void> {
  const problem = channelProblem(await channelState(client, channelId));
  if (problem) throw problem;
}
