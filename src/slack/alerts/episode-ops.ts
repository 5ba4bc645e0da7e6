import type { WebClient } from "@slack/web-api";
import { alertWhyMessage, type EpisodeEvent } from "../../../templates/alert-message.ts";
import type { Message } from "../../blockkit/types.ts";
import { explainAlert, explainTarget } from "../../digests/alert-explain.ts";
import { subscriptionAssetIds } from "../../digests/subscription-filters.ts";
import { AppError } from "../../errors.ts";
import { parseRange } from "../../insights/ranges.ts";
import { redrawEpisode, replyInThread, type SlackCall } from "../../jobs/alert-episode.ts";
import { SNOOZE_KINDS, type SnoozeKind, snoozeUntil } from "../../subscriptions/alerts.ts";
import { explainedMeasure } from "../../subscriptions/conditions.ts";
import { ackField, snoozeField } from "../../subscriptions/run-state.ts";
import { conditionOf } from "../../subscriptions/run-verdict.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import type { RequestContext } from "../frame/types.ts";
import { requireChange } from "../subscriptions/access.ts";
import { loadSubscription, runSubscriptionOp } from "../subscriptions/ops.ts";

/**
 * What the controls on an alert's message do: acknowledge, snooze and pause the alert (its owner and
 * workspace admins, as for any change to a subscription), Why? and "was it useful?" (anyone who may
 * read digests). A Redis script decides each change (src/jobs/alert-state.ts); only the click it lets
 * through redraws the message and replies in its thread, so a double click tells nothing twice.
 */

type Ctx = Pick<RequestContext, "deps" | "ref" | "client" | "user" | "reply" | "log">;

/** A control's value: `<subscription id>|<episode>` and, for some, one more field. */
export interface ControlValue {
  subId: string;
  ep: string;
  extra?: string;
}

const VALUE = /^([A-Za-z0-9_-]{1,40})\|(\d{8}T\d{6}Z)(?:\|([hdwc+-]))?$/;

/** @throws AppError `bad_state` for anything but a value the alert template wrote. */
export function parseControlValue(raw: unknown): ControlValue {
  const m = typeof raw === "string" ? VALUE.exec(raw) : null;
  if (!m) throw new AppError("bad_state", "This alert's controls carry no readable state.");
  return { subId: m[1] as string, ep: m[2] as string, ...(m[3] ? { extra: m[3] } : {}) };
}

const callWith =
  (client: WebClient): SlackCall =>
  async (method, args) =>
    (await client.apiCall(method, args)) as unknown as Record<string, unknown>;

/** The subscription behind a control, refused unless this person may change it. */
async function changeable(ctx: Ctx, v: ControlValue): Promise<Subscription> {
  const sub = await loadSubscription(ctx.deps, ctx.ref, v.subId);
  requireChange(await ctx.user(), sub, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref));
  return sub;
}

/**
 * Redraws the episode's message from the record as it stands when the edit goes out (not as this
 * click read it: the worker may have cleared it since), with `event` in its thread.
 */
async function tell(ctx: Ctx, subId: string, ep: string, event: EpisodeEvent): Promise<void> {
  const call = callWith(ctx.client);
  const drawn = await redrawEpisode(ctx.deps.alerts, call, ctx.ref, subId, ep);
  if (!drawn) {
    ctx.log.warn({ subId, ep }, "the episode's message is not known; the change is recorded but not redrawn");
    return;
  }
  await replyInThread(call, drawn, event);
}

const BUSY = "The alert is being told a change right now; try again in a moment.";

const OVER = "This alert episode is over (it cleared, or a newer one started): nothing changed.";

/** Acknowledge: records who, once; the message says so and its thread gets a line. */
export async function acknowledge(ctx: Ctx, raw: unknown): Promise<void> {
  const v = parseControlValue(raw);
  const sub = await changeable(ctx, v);
  const user = await ctx.user();
  const at = ctx.deps.clock();
  const r = await ctx.deps.alerts.acknowledge(ctx.ref, sub.id, v.ep, ackField(user.id, at));
  if (r.outcome === "done") {
    ctx.log.info({ subId: sub.id, ep: v.ep }, "alert acknowledged");
    await tell(ctx, sub.id, v.ep, { kind: "acknowledged", by: user.id, at: at.toISOString() });
  } else if (r.outcome === "already") {
    const by = r.was?.split("|")[0] ?? "";
    await ctx.reply.notice(`Already acknowledged${/^[UW][A-Z0-9]+$/.test(by) ? ` by <@${by}>` : ""}.`);
  } else if (r.outcome === "busy") await ctx.reply.notice(BUSY);
  else await ctx.reply.notice(OVER);
}

const KIND: Record<string, SnoozeKind> = Object.fromEntries(SNOOZE_KINDS.map((k) => [k[0], k]));

/** Snooze for an hour, a day, a week or until it clears: nothing is posted until then. */
export async function snooze(ctx: Ctx, raw: unknown): Promise<void> {
  const v = parseControlValue(raw);
  const kind = v.extra ? KIND[v.extra] : undefined;
  if (!kind) throw new AppError("bad_state", "This snooze option carries no readable length.");
  const sub = await changeable(ctx, v);
  const user = await ctx.user();
  const at = ctx.deps.clock();
  const until = snoozeUntil(kind, at);
  const r = await ctx.deps.alerts.snooze(ctx.ref, sub.id, v.ep, {
    value: snoozeField(kind, until, user.id, at),
    kind,
    by: user.id,
    at,
  });
  if (r === "done") {
    ctx.log.info({ subId: sub.id, ep: v.ep, kind }, "alert snoozed");
    const event: EpisodeEvent = { kind: "snoozed", by: user.id, at: at.toISOString() };
    if (until) event.until = until.toISOString();
    await tell(ctx, sub.id, v.ep, event);
  } else if (r === "repeat")
    await ctx.reply.notice("Snoozed that way a moment ago already: nothing changed.");
  else if (r === "busy") await ctx.reply.notice(BUSY);
  else if (r === "over" || r === "gone") await ctx.reply.notice(OVER);
}

/** How long one person's pause of one alert holds off a second pause (a double click). */
const PAUSE_CLAIM_MS = 30_000;

/** Pause this alert: the subscription pauses as `/insights pause` does; the message and thread say who. */
export async function pause(ctx: Ctx, raw: unknown): Promise<void> {
  const v = parseControlValue(raw);
  const sub = await changeable(ctx, v);
  if (sub.status === "paused") {
    await ctx.reply.notice(`This alert is already paused. \`/insights resume ${sub.id}\` starts it again.`);
    return;
  }
  // One pause per click storm: whoever sets the claim pauses and tells; the others hear it is done.
  const claimed = await ctx.deps.redis.set(
    ctx.deps.keys.lock(ctx.ref, `alert-pause-${sub.id}`),
    v.ep,
    "PX",
    PAUSE_CLAIM_MS,
    "NX",
  );
  if (claimed !== "OK") {
    await ctx.reply.notice("This alert is being paused already.");
    return;
  }
  const user = await ctx.user();
  await runSubscriptionOp(ctx.deps, ctx.client, ctx.ref, user, sub.id, "pause");
  await tell(ctx, sub.id, v.ep, {
    kind: "paused",
    by: user.id,
    at: ctx.deps.clock().toISOString(),
    subId: sub.id,
  });
}

/** "Was it useful?": one vote per person and episode (changeable); thanks, with the alert's counts. */
export async function feedback(ctx: Ctx, raw: unknown): Promise<void> {
  const v = parseControlValue(raw);
  if (v.extra !== "+" && v.extra !== "-") throw new AppError("bad_state", "This feedback carries no answer.");
  const sub = await loadSubscription(ctx.deps, ctx.ref, v.subId);
  const user = await ctx.user();
  const counts = await ctx.deps.alerts.feedback(ctx.ref, sub.id, {
    ep: v.ep,
    user: user.id,
    useful: v.extra === "+",
  });
  if (!counts) throw new AppError("bad_state", "This alert has no such episode any more.");
  ctx.log.info(
    { subId: sub.id, ep: v.ep, useful: v.extra === "+", changed: counts.changed },
    "alert feedback",
  );
  await ctx.reply.notice(
    `Thanks: noted as ${v.extra === "+" ? "useful" : "not useful"}. This alert so far: ${counts.useful} 👍 · ${counts.notUseful} 👎`,
  );
}

/**
 * Why? on an alert: the drivers of what it fired on (the day against a usual one, or the range
 * against the one before), every measure, privately to whoever asked.
 */
export async function why(ctx: Ctx, raw: unknown): Promise<Message> {
  const v = parseControlValue(raw);
  const sub = await loadSubscription(ctx.deps, ctx.ref, v.subId);
  const now = ctx.deps.clock();
  const body = await ctx.deps.alerts.body(ctx.ref, sub.id, v.ep);
  const condition = conditionOf(sub);
  const target =
    body?.explain ?? explainTarget(parseRange(sub.range, { now, tz: sub.tz }), explainedMeasure(condition));
  // An alert on asset groups breaks down the groups' assets of today.
  const assetIds = await subscriptionAssetIds(ctx.deps.digests, { ...sub, ref: ctx.ref }, now);
  const who = { ref: ctx.ref, tz: sub.tz, now, assetIds, scannerIds: sub.scannerIds };
  const explanation = await explainAlert(ctx.deps.digests, who, target);
  return alertWhyMessage(explanation, {
    range: sub.range,
    assetIds: sub.assetIds,
    ...(sub.assetGroups?.length ? { assetGroups: sub.assetGroups } : {}),
    scannerIds: sub.scannerIds,
  });
}
