import type { ButtonAction } from "@slack/bolt";
import { askAdjustModal } from "../../../../templates/ask-adjust-modal.ts";
import { AppError } from "../../../errors.ts";
import { ACTION } from "../../../ids.ts";
import { monthDayText } from "../../../subscriptions/month-day.ts";
import { carriedAdjust, carriedProposal } from "../../ask-carried.ts";
import { confirmProposal, proposalFilters, scheduleOfProposal } from "../../ask-proposal.ts";
import { OPENS_MODAL, onAction } from "../../frame/index.ts";
import { openSubscribeModal } from "../../subscriptions/modal-open.ts";

const value = (action: unknown) => (action as ButtonAction).value;

/** Adjust on an answer: the modal with what was understood, field by field. */
export const askAdjust = onAction({
  id: ACTION.askAdjust,
  access: "reader",
  inline: OPENS_MODAL,
  async run(ctx) {
    const fields = await carriedAdjust(ctx, value(ctx.action));
    const channel = ctx.body.channel?.id;
    const thread = ctx.body.message?.thread_ts ?? ctx.body.message?.ts;
    if (!channel || !thread)
      throw new AppError("bad_state", "This answer is not in a conversation I can answer in.");
    await ctx.client.views.open({
      trigger_id: ctx.body.trigger_id,
      view: askAdjustModal(fields, JSON.stringify({ c: channel, t: thread })) as never,
    });
  },
});

/** Confirm on a proposed digest or alert: a personal subscription, made now. */
export const askConfirm = onAction({
  id: ACTION.askConfirm,
  access: "reader",
  // Handed off (the default): resolving a group's assets may ask the service for its lists.
  run: async (ctx) => {
    const raw = value(ctx.action);
    await confirmProposal(ctx, await carriedProposal(ctx, raw), raw ?? "");
  },
});

/** "Change first…": the subscribe modal in its personal form, filled in with the proposal. */
export const askChange = onAction({
  id: ACTION.askChange,
  access: "reader",
  inline: OPENS_MODAL,
  async run(ctx) {
    const p = await carriedProposal(ctx, value(ctx.action));
    const user = await ctx.user();
    // Only lists at hand: the modal must open within the trigger's 3 s.
    // The form shows assets only: a group is its assets of today there.
    const filters = await proposalFilters(ctx, p, user.tz, "only")
      .then((f) => ({
        assetIds: [...new Set([...f.assetIds, ...f.groupAssetIds])],
        scannerIds: f.scannerIds,
      }))
      .catch(() => ({ assetIds: p.assetIds, scannerIds: p.scannerIds }));
    const schedule = scheduleOfProposal(p);
    await openSubscribeModal({
      ctx,
      triggerId: ctx.body.trigger_id,
      personal: true,
      initial: {
        // A proposal's schedules are the form's own (never cron).
        frequency: schedule.kind,
        days: schedule.kind === "weekly" ? schedule.days : ["mon"],
        ...("on" in schedule ? { on: monthDayText(schedule.on) } : {}),
        time: p.schedule.time,
        ...(p.schedule.tz ? { tz: p.schedule.tz } : {}),
        range: p.range,
        assetIds: filters.assetIds,
        scannerIds: filters.scannerIds,
        condition: p.condition ?? "",
        mode: p.mode,
      },
    });
  },
});

export const ASK_ACTIONS = [askAdjust, askConfirm, askChange];
