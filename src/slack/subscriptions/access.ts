import type { WebClient } from "@slack/web-api";
import { AppError } from "../../errors.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import { canManage, type PermissionPolicy } from "../permissions.ts";
import type { AppServices } from "../services.ts";
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

/** How long a checked channel's state is trusted; channel events forget it sooner. */
const CHANNEL_STATE_TTL_S = 600;

type ChannelCacheDeps = Pick<AppServices, "redis" | "keys">;

/**
 * A channel's state as last checked, read without asking Slack: what a modal submission, which must
 * be answered without waiting on Slack, can go on. Null when it was not checked lately.
 */
export async function knownChannelState(
  deps: ChannelCacheDeps,
  ref: WorkspaceRef,
  channelId: string,
): Promise<ChannelState | null> {
  if (!/^[CG][A-Z0-9]{2,31}$/.test(channelId)) return "not_a_channel";
  const known = await deps.redis.get(deps.keys.channelState(ref, channelId));
  return known === "ok" || known === "not_in_channel" || known === "archived" ? known : null;
}

/** Looks the channel up (conversations.info) and remembers what it found for the next submission. */
export async function checkChannel(
  deps: ChannelCacheDeps,
  client: WebClient,
  ref: WorkspaceRef,
  channelId: string,
): Promise<ChannelState> {
  const state = await channelState(client, channelId);
  if (state !== "not_a_channel")
    await deps.redis.set(deps.keys.channelState(ref, channelId), state, "EX", CHANNEL_STATE_TTL_S);
  return state;
}

/** A channel event changed what the app can do there: the next check asks Slack again. */
export async function forgetChannel(deps: ChannelCacheDeps, ref: WorkspaceRef, channelId: string) {
  if (/^[CG][A-Z0-9]{2,31}$/.test(channelId)) await deps.redis.del(deps.keys.channelState(ref, channelId));
}
