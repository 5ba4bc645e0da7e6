import type { ButtonAction } from "@slack/bolt";
import { ACTION } from "../../../ids.ts";
import { type ActionEntry, onAction } from "../../frame/index.ts";
import { runSubscriptionOp, type SubscriptionOp } from "../../subscriptions/ops.ts";
import { answerOnList } from "../../subscriptions/reply.ts";

/**
 * Pause, Resume, Send now and Delete on a subscription row (Home tab or list); the button's value is
 * the subscription id. Whether this person may change that subscription is checked by the operation.
 */
function subscriptionButton(id: string, op: SubscriptionOp): ActionEntry {
  return onAction({
    id,
    access: "reader",
    async run(ctx) {
      const value = (ctx.action as ButtonAction).value ?? "";
      const outcome = await runSubscriptionOp(ctx.deps, ctx.client, ctx.ref, await ctx.user(), value, op);
      await answerOnList(ctx, outcome.text);
    },
  });
}

export const subscriptionButtons = [
  subscriptionButton(ACTION.subscriptionPause, "pause"),
  subscriptionButton(ACTION.subscriptionResume, "resume"),
  subscriptionButton(ACTION.subscriptionSend, "send"),
  subscriptionButton(ACTION.subscriptionDelete, "delete"),
];
