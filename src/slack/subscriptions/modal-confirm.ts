import type { SubscribeForm } from "../../../templates/subscribe-modal.ts";
import { subscribedMessage } from "../../../templates/subscribe-reply.ts";
import { runTime, scheduleWords } from "../../../templates/subscribe-times.ts";
import { escapeMrkdwn, mrkdwn } from "../../blockkit/text.ts";
import type { Message } from "../../blockkit/types.ts";
import { SUBSCRIBE_FIELD as F } from "../../ids.ts";
import type { Logger } from "../../log.ts";
import type { Scheduled } from "../../subscriptions/service.ts";
import type { Subscription } from "../../subscriptions/types.ts";
import type { RequestContext } from "../frame/index.ts";
import { publishHome } from "../home.ts";
import type { ModalMeta } from "./modal-state.ts";
import { isPersonal } from "./personal.ts";

/** What the subscribe modal's submission does around the save: where errors go, how success is told. */

/** The input block an engine validation error belongs to (`details.field`), among those the view has. */
export function blockFor(field: unknown, form: SubscribeForm, present: Set<string>): string {
  const extra: Record<string, string> = { condition: F.condition, mode: F.mode, style: F.style };
  if (typeof field === "string" && extra[field] && present.has(extra[field] as string))
    return extra[field] as string;
  const wanted =
    field === "tz"
      ? F.timezone
      : field === "time"
        ? F.time
        : field === "range"
          ? F.range
          : field === "assetIds"
            ? F.assets
            : field === "scannerIds"
              ? F.scanners
              : field === "schedule"
                ? form.frequency === "cron"
                  ? F.cron
                  : form.frequency === "weekly"
                    ? F.weekday
                    : form.frequency === "monthly" || form.frequency === "quarterly"
                      ? F.monthDay
                      : F.frequency
                : F.channel;
  return present.has(wanted) ? wanted : present.has(F.channel) ? F.channel : F.range;
}

/** Tells the creator it is saved: on the Home tab when opened there, else privately where they typed. */
export async function confirmSaved(
  ctx: Pick<RequestContext, "deps" | "client" | "ref" | "userId">,
  meta: ModalMeta,
  saved: Scheduled,
  verb: "subscribed" | "updated",
): Promise<void> {
  const { deps, client, ref, userId } = ctx;
  const sub = saved.subscription;
  const log = deps.logger.child({ subId: sub.id, userId });
  if (meta.home) {
    const next = saved.nextRuns[0];
    const where = isPersonal(sub) ? "your personal digest" : `<#${sub.channelId}>`;
    const notice = `:white_check_mark: ${verb === "updated" ? "Updated" : "Subscribed"} ${where}: ${escapeMrkdwn(scheduleWords(sub.schedule, sub.time))} (${escapeMrkdwn(sub.tz)}), id \`${sub.id}\`.${next ? ` Next run ${runTime(next, sub.tz)}.` : ""}`;
    await publishHome(deps, client, ref, userId, notice);
    return;
  }
  await tellCreator(ctx, meta, subscribedMessage({ ...sub, nextRuns: saved.nextRuns, verb }), log);
}

/**
 * Tells the creator it is saved but paused because the app cannot post in its channel yet, and that
 * it starts by itself once that is fixed (joining or unarchiving the channel resumes it).
 */
export async function confirmPaused(
  ctx: Pick<RequestContext, "deps" | "client" | "ref" | "userId">,
  meta: ModalMeta,
  sub: Subscription,
  why: string,
): Promise<void> {
  const text = `:double_vertical_bar: Saved \`${sub.id}\` for <#${sub.channelId}>, paused for now: ${escapeMrkdwn(why.replace(/`/g, ""))} It starts by itself once the app can post there.`;
  const log = ctx.deps.logger.child({ subId: sub.id, userId: ctx.userId });
  if (meta.home) {
    await publishHome(ctx.deps, ctx.client, ctx.ref, ctx.userId, text);
    return;
  }
  await tellCreator(ctx, meta, { text, blocks: [{ type: "section", text: mrkdwn(text) }] }, log);
}

/** Privately where the creator typed (ephemeral), else by DM. */
async function tellCreator(
  ctx: Pick<RequestContext, "client" | "userId">,
  meta: ModalMeta,
  message: Message,
  log: Logger,
): Promise<void> {
  const { client, userId } = ctx;
  const channel = meta.origin && /^[CG]/.test(meta.origin) ? meta.origin : undefined;
  try {
    if (channel) await client.chat.postEphemeral({ channel, user: userId, ...message });
    else await client.chat.postMessage({ channel: userId, ...message });
  } catch (err) {
    log.info({ err }, "confirmation not shown in the channel; sending it by DM");
    await client.chat
      .postMessage({ channel: userId, ...message })
      .catch((e: unknown) => log.warn({ err: e }, "could not confirm the subscription"));
  }
}
