import type { WebClient } from "@slack/web-api";
import { scheduleWords } from "../../../../templates/subscribe-times.ts";
import { escapeMrkdwn } from "../../../blockkit/text.ts";
import type { WorkspaceRef } from "../../../store/keys.ts";
import { CHANNEL_REASONS } from "../../../subscriptions/reasons.ts";
import type { Subscription } from "../../../subscriptions/types.ts";
import { type EventContext, type EventEntry, onEvent } from "../../frame/index.ts";
import type { AppServices } from "../../services.ts";
import { checkChannel, forgetChannel } from "../../subscriptions/access.ts";

/**
 * Channel lifecycle events and scheduled digests. A channel archived or deleted, or the app removed
 * from it, pauses its subscriptions at once (the engine queues each owner one DM, so none is sent
 * here). A channel unarchived, or the app invited back, resumes those paused for a channel reason
 * when the app can post there again; otherwise owners are told what is still missing.
 */

const channelOf = (event: EventContext["event"]) =>
  typeof event.channel === "string" ? event.channel : undefined;

async function pause(ctx: EventContext, channel: string, reason: string): Promise<void> {
  const { deps, ref } = ctx;
  const paused = await deps.subscriptions.pauseChannel(ref, channel, reason);
  if (paused.length > 0)
    deps.logger.info(
      { teamId: ref.teamId, channel, reason, paused: paused.map((s) => s.id) },
      "channel subscriptions paused",
    );
}

/** Membership events concern the app only when they name its bot user. */
const MEMBERSHIP = new Set(["member_left_channel", "member_joined_channel"]);

/** A listener for an event about a channel the app is in: `act` gets that channel. */
function channelEvent(id: string, act: (ctx: EventContext, channel: string) => Promise<void>): EventEntry {
  return onEvent({
    id,
    inline: "pauses or resumes the channel's subscriptions (Redis), knowing the bot user from Bolt's context",
    async run(ctx) {
      const channel = channelOf(ctx.event);
      if (!channel) return;
      if (MEMBERSHIP.has(ctx.event.type) && ctx.event.user !== ctx.context.botUserId) return;
      // What the app can do there changed: a subscribe modal must not go on an older check.
      await forgetChannel(ctx.deps, ctx.ref, channel);
      await act(ctx, channel);
    },
  });
}

/** `channel_archive` / `group_archive` / `channel_deleted` / `group_deleted`: pause with `reason`. */
function channelGone(id: string, reason: "channel_archived" | "channel_deleted"): EventEntry {
  return channelEvent(id, (ctx, channel) => pause(ctx, channel, reason));
}

/**
 * The app left a channel: `member_left_channel` naming the bot user, or `channel_left` /
 * `group_left` (sent to the bot itself, without a user).
 */
function botLeft(id: string): EventEntry {
  return channelEvent(id, (ctx, channel) => pause(ctx, channel, "bot_removed"));
}

function listLine(subs: Subscription[]): string {
  return subs
    .map(
      (s) =>
        `\`${escapeMrkdwn(s.id)}\` (${escapeMrkdwn(scheduleWords(s.schedule, s.time))}, ${escapeMrkdwn(s.tz)})`,
    )
    .join(", ");
}

/** One DM per owner, naming their subscriptions of the channel. */
async function tellOwners(
  deps: AppServices,
  client: WebClient,
  subs: Subscription[],
  text: (mine: Subscription[]) => string,
) {
  const byOwner = new Map<string, Subscription[]>();
  for (const s of subs) byOwner.set(s.ownerId, [...(byOwner.get(s.ownerId) ?? []), s]);
  for (const [owner, mine] of byOwner)
    await client.chat
      .postMessage({ channel: owner, text: text(mine) })
      .catch((err: unknown) => deps.logger.warn({ err, owner }, "could not DM a subscription owner"));
}

async function channelBack(
  deps: AppServices,
  client: WebClient,
  ref: WorkspaceRef,
  channel: string,
  retry: boolean,
) {
  const waiting = (await deps.subscriptions.listByChannel(ref, channel)).filter(
    (s) => s.status === "paused" && (CHANNEL_REASONS as readonly string[]).includes(s.pausedReason ?? ""),
  );
  if (waiting.length === 0) return;
  const state = await checkChannel(deps, client, ref, channel);
  if (state === "ok") {
    const resumed = await deps.subscriptions.resumeChannel(ref, channel);
    deps.logger.info(
      { teamId: ref.teamId, channel, resumed: resumed.map((s) => s.id) },
      "channel subscriptions resumed",
    );
    await tellOwners(
      deps,
      client,
      resumed,
      (mine) =>
        `:arrow_forward: <#${channel}> can get digests again, so your scheduled digests there resumed: ${listLine(mine)}. If a run was missed while paused, one catch-up digest follows.`,
    );
  } else if (state === "not_in_channel" && !retry) {
    await tellOwners(
      deps,
      client,
      waiting,
      (mine) =>
        `:information_source: <#${channel}> is back, but the app is not a member. Invite it with \`/invite @Insights\` there and your scheduled digests resume: ${listLine(mine)}.`,
    );
  }
}

/** `channel_unarchive` / `group_unarchive`, or `member_joined_channel` naming the bot user. */
function channelReturned(id: string): EventEntry {
  return channelEvent(id, (ctx, channel) =>
    channelBack(ctx.deps, ctx.client, ctx.ref, channel, ctx.context.retryNum !== undefined),
  );
}

/** Every channel lifecycle event the app listens to. */
export const CHANNEL_EVENTS: EventEntry[] = [
  channelGone("channel_archive", "channel_archived"),
  channelGone("group_archive", "channel_archived"),
  channelGone("channel_deleted", "channel_deleted"),
  channelGone("group_deleted", "channel_deleted"),
  botLeft("member_left_channel"),
  botLeft("channel_left"),
  botLeft("group_left"),
  channelReturned("channel_unarchive"),
  channelReturned("group_unarchive"),
  channelReturned("member_joined_channel"),
];
