import { subscribedMessage } from "../../templates/subscribe-reply.ts";
import type { Proposal } from "../ask/proposal.ts";
import { AppError } from "../errors.ts";
import { assetIdsOfGroups } from "../insights/asset-groups.ts";
import type { Schedule, SubscriptionInput } from "../subscriptions/types.ts";
import type { ActionContext } from "./frame/index.ts";
import { openDm } from "./subscriptions/personal.ts";

/**
 * A subscription or alert a question proposed, once its person confirms: the same personal
 * subscription `/insights subscribe me …` (or `alert me …`) makes, delivered by DM to whoever
 * presses the button, in their zone. The proposal then becomes the confirmation, so its button is
 * gone and cannot set it up twice.
 */

export function scheduleOfProposal(p: Proposal): Schedule {
  return p.schedule.frequency === "weekly"
    ? { kind: "weekly", days: p.schedule.days }
    : { kind: p.schedule.frequency };
}

/** The proposal's filters as ids and names, groups resolved to their assets of today. */
export async function proposalFilters(
  ctx: Pick<ActionContext, "deps" | "ref">,
  p: Proposal,
  tz: string,
  kept: true | "only",
): Promise<{ assetIds: string[]; scannerIds: string[]; filterLabels: string[] }> {
  if (p.groups.length === 0 && p.assetIds.length === 0 && p.scannerIds.length === 0)
    return { assetIds: [], scannerIds: [], filterLabels: [] };
  const lists = await ctx.deps.digests.filterLists(ctx.ref, tz, ctx.deps.clock(), { kept });
  const grouped = assetIdsOfGroups(lists.assets ?? [], p.groups);
  if (p.groups.length > 0 && grouped.length === 0)
    throw new AppError("bad_filter", `No asset group is called "${p.groups.join('", "')}" any more.`);
  const name = (list: { value: string; displayValue: string }[] | null, id: string) =>
    list?.find((o) => o.value === id)?.displayValue ?? id;
  return {
    assetIds: [...new Set([...p.assetIds, ...grouped])],
    scannerIds: p.scannerIds,
    filterLabels: [
      ...p.groups.map((g) => `${g}/*`),
      ...p.assetIds.map((id) => name(lists.assets, id)),
      ...p.scannerIds.map((id) => name(lists.scanners, id)),
    ],
  };
}

export async function confirmProposal(ctx: ActionContext, p: Proposal): Promise<void> {
  const user = await ctx.user();
  const filters = await proposalFilters(ctx, p, user.tz, true);
  const input: SubscriptionInput = {
    channelId: await openDm(ctx.client, ctx.userId),
    schedule: scheduleOfProposal(p),
    time: p.schedule.time,
    // The zone said in the question ("9am Pacific"), else the person's own.
    tz: p.schedule.tz ?? user.tz,
    range: p.range,
    ...filters,
    mode: p.mode,
    style: "post",
    ...(p.condition ? { condition: p.condition } : {}),
  };
  const { subscription, nextRuns } = await ctx.deps.subscriptions.create(ctx.ref, input, ctx.userId);
  ctx.log.info({ subId: subscription.id, mode: subscription.mode }, "subscription created from a question");
  const message = subscribedMessage({ ...subscription, nextRuns, verb: "subscribed" });
  // The container, not the message: a handed-off click carries the clicked message's place only.
  const container = ctx.body.container as { channel_id?: string; message_ts?: string } | undefined;
  const channel = container?.channel_id ?? ctx.body.channel?.id;
  const ts = container?.message_ts;
  if (channel && ts) {
    const updated = await ctx.client.chat.update({ channel, ts, ...message }).then(
      () => true,
      (err: unknown) => {
        ctx.log.info({ err }, "proposal not replaced by its confirmation");
        return false;
      },
    );
    if (updated) return;
  }
  await ctx.reply.message(message);
}
