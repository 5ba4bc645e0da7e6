import { subscribedMessage } from "../../templates/subscribe-reply.ts";
import { PROPOSAL_DAYS, type Proposal } from "../ask/proposal.ts";
import type { Message } from "../blockkit/types.ts";
import { AppError } from "../errors.ts";
import { COMMAND } from "../ids.ts";
import { assetIdsOfGroups, groupsGoneText, missingGroups } from "../insights/asset-groups.ts";
import { digestToken } from "../store/keys.ts";
import { claimProposal, finishProposal, releaseProposal } from "../store/proposal-claims.ts";
import type { Schedule, SubscriptionInput } from "../subscriptions/types.ts";
import type { ActionContext } from "./frame/index.ts";
import { openDm } from "./subscriptions/personal.ts";

/**
 * A subscription or alert a question proposed, once its person confirms: the same personal
 * subscription `/insights subscribe me …` (or `alert me …`) makes, delivered by DM to whoever
 * presses the button, in their zone. The proposal then becomes the confirmation, so its button is
 * gone; and its Confirm is claimed by the proposal's id, so a double click, a retried job or a button
 * left on screen (when the message could not be replaced) sets it up once.
 */

/** The subscription's schedule of a proposal's (a monthly or quarterly one without a day runs on the 1st). */
export function scheduleOfProposal(p: Proposal): Schedule {
  const s = p.schedule;
  switch (s.frequency) {
    case "weekly":
      return { kind: "weekly", days: s.days };
    case "monthly":
    case "quarterly":
      return { kind: s.frequency, on: s.on ?? { kind: "day", day: 1 } };
    default:
      return { kind: s.frequency };
  }
}

/**
 * The proposal's filters: ids with their names, and its asset groups kept as groups, which each run
 * resolves to that day's assets (as a digest's groups are). Each group must be there now: one gone
 * is said, never left out. `groupAssetIds` are the groups' assets of today, for a form that shows
 * assets only.
 */
export async function proposalFilters(
  ctx: Pick<ActionContext, "deps" | "ref">,
  p: Proposal,
  tz: string,
  kept: true | "only",
): Promise<{
  assetIds: string[];
  assetGroups?: string[];
  scannerIds: string[];
  filterLabels: string[];
  groupAssetIds: string[];
}> {
  if (p.groups.length === 0 && p.assetIds.length === 0 && p.scannerIds.length === 0)
    return { assetIds: [], scannerIds: [], filterLabels: [], groupAssetIds: [] };
  const lists = await ctx.deps.digests.filterLists(ctx.ref, tz, ctx.deps.clock(), { kept });
  if (p.groups.length > 0 && !lists.assets)
    throw new AppError(
      "filters_unavailable",
      "This analytics endpoint does not offer asset or scanner filters.",
    );
  const gone = missingGroups(lists.assets ?? [], p.groups);
  if (gone.length > 0) throw new AppError("group_gone", groupsGoneText(gone), { details: { groups: gone } });
  const name = (list: { value: string; displayValue: string }[] | null, id: string) =>
    list?.find((o) => o.value === id)?.displayValue ?? id;
  return {
    assetIds: p.assetIds,
    ...(p.groups.length > 0 ? { assetGroups: p.groups } : {}),
    scannerIds: p.scannerIds,
    filterLabels: [
      ...p.groups.map((g) => `${g}/*`),
      ...p.assetIds.map((id) => name(lists.assets, id)),
      ...p.scannerIds.map((id) => name(lists.scanners, id)),
    ],
    groupAssetIds: assetIdsOfGroups(lists.assets ?? [], p.groups),
  };
}

/** How long one run holds a proposal: only the subscription's write runs under it. */
const LEASE_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The id the proposal's Confirm is claimed by: its own, or for a proposal offered before ids, its message's. */
function proposalId(ctx: ActionContext, p: Proposal, raw: string): string {
  if (p.id) return p.id;
  const container = ctx.body.container as { channel_id?: string; message_ts?: string } | undefined;
  const channel = container?.channel_id ?? ctx.body.channel?.id;
  const ts = container?.message_ts ?? ctx.body.message?.ts;
  return channel && ts ? digestToken("proposal", channel, ts) : digestToken("proposal", raw);
}

/** The proposal for this run, or the subscription it made; waits while another press is writing it. */
async function claimOnce(ctx: ActionContext, id: string) {
  const deadline = Date.now() + LEASE_MS + 1_000;
  for (;;) {
    const c = await claimProposal(ctx.deps, ctx.ref, id, LEASE_MS);
    if (c.state !== "busy") return c;
    if (Date.now() > deadline)
      throw new AppError(
        "unavailable",
        "This is being set up by another press of the button; look again in a moment.",
      );
    await sleep(Math.min(c.retryInMs, 200));
  }
}

/** Replaces the proposal with `message` (its buttons go); false when Slack would not. */
async function replaceProposal(ctx: ActionContext, message: Message): Promise<boolean> {
  // The container, not the message: a handed-off click carries the clicked message's place only.
  const container = ctx.body.container as { channel_id?: string; message_ts?: string } | undefined;
  const channel = container?.channel_id ?? ctx.body.channel?.id;
  const ts = container?.message_ts;
  if (!channel || !ts) return false;
  return ctx.client.chat.update({ channel, ts, ...message }).then(
    () => true,
    (err: unknown) => {
      ctx.log.info({ err }, "proposal not replaced by its confirmation");
      return false;
    },
  );
}

/** A press after the proposal made its subscription: says so, and tries again to replace the proposal. */
async function alreadyDone(ctx: ActionContext, p: Proposal, subscriptionId: string): Promise<void> {
  const what = p.mode === "alert" ? "alert" : "digest";
  const sub = await ctx.deps.subscriptions.get(ctx.ref, subscriptionId);
  ctx.log.info({ subId: subscriptionId }, "proposal confirmed before; nothing created");
  if (!sub) {
    await ctx.reply.notice(
      `This ${what} was set up already (as \`${subscriptionId}\`) and has since been deleted: ask again for a new one.`,
    );
    return;
  }
  const nextRuns = ctx.deps.subscriptions.nextRuns(sub);
  await replaceProposal(ctx, subscribedMessage({ ...sub, nextRuns, verb: "subscribed" }));
  await ctx.reply.notice(
    `This ${what} is already set up, once: it is \`${subscriptionId}\` in \`${COMMAND} subscriptions\`.`,
  );
}

export async function confirmProposal(ctx: ActionContext, p: Proposal, raw: string): Promise<void> {
  if (p.until !== undefined && ctx.deps.clock().getTime() > p.until * 1000)
    throw new AppError(
      "bad_state",
      `A proposal can be set up for ${PROPOSAL_DAYS} days after it is made, and this one is older: ask again.`,
    );
  const id = proposalId(ctx, p, raw);
  const user = await ctx.user();
  const { groupAssetIds: _today, ...filters } = await proposalFilters(ctx, p, user.tz, true);
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
  const claim = await claimOnce(ctx, id);
  if (claim.state === "done") return alreadyDone(ctx, p, claim.subscriptionId);
  let created: Awaited<ReturnType<typeof ctx.deps.subscriptions.create>>;
  try {
    created = await ctx.deps.subscriptions.create(ctx.ref, input, ctx.userId);
  } catch (err) {
    await releaseProposal(ctx.deps, ctx.ref, id, claim.token);
    throw err;
  }
  const { subscription, nextRuns } = created;
  // Remembered while the proposal can still be pressed (a day more, for clocks that differ).
  const until = p.until ? p.until * 1000 : ctx.deps.clock().getTime() + PROPOSAL_DAYS * 86_400_000;
  const ttlMs = Math.max(until - ctx.deps.clock().getTime(), 0) + 86_400_000;
  await finishProposal(ctx.deps, ctx.ref, id, claim.token, subscription.id, ttlMs);
  ctx.log.info({ subId: subscription.id, mode: subscription.mode }, "subscription created from a question");
  const message = subscribedMessage({ ...subscription, nextRuns, verb: "subscribed" });
  if (await replaceProposal(ctx, message)) return;
  await ctx.reply.message(message);
}
