import type { ButtonAction, StaticSelectAction } from "@slack/bolt";
import { ACTION } from "../../../ids.ts";
import * as ops from "../../alerts/episode-ops.ts";
import { type ActionContext, onAction } from "../../frame/index.ts";

/** The value of a button or a feedback button (Bolt types the latter loosely). */
const clicked = (ctx: ActionContext) => (ctx.action as ButtonAction).value;

/**
 * The controls on an alert's message. Acknowledge, Snooze and Pause change the alert: the frame lets
 * readers in and the operation refuses anyone but the alert's owner and workspace admins. All of
 * them run in the digest executor, the frame's default: Why? computes drivers, and the others look
 * the person up, run a script and edit the alert's message, none of which the ack waits for.
 */
export const alertButtons = [
  onAction({
    id: ACTION.alertAcknowledge,
    access: "reader",
    run: (ctx) => ops.acknowledge(ctx, clicked(ctx)),
  }),
  onAction({
    id: ACTION.alertSnooze,
    access: "reader",
    run: (ctx) => ops.snooze(ctx, (ctx.action as StaticSelectAction).selected_option?.value),
  }),
  onAction({
    id: ACTION.alertPause,
    access: "reader",
    run: (ctx) => ops.pause(ctx, clicked(ctx)),
  }),
  onAction({
    id: ACTION.alertFeedback,
    access: "reader",
    run: (ctx) => ops.feedback(ctx, clicked(ctx)),
  }),
  onAction({
    id: ACTION.alertWhy,
    access: "reader",
    run: async (ctx) => ctx.reply.message(await ops.why(ctx, clicked(ctx))),
  }),
];
