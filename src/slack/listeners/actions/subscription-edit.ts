import type { ButtonAction } from "@slack/bolt";
import { ACTION } from "../../../ids.ts";
import { OPENS_MODAL, onAction } from "../../frame/index.ts";
import { requireChange } from "../../subscriptions/access.ts";
import { openSubscribeModal } from "../../subscriptions/modal-open.ts";
import { loadSubscription } from "../../subscriptions/ops.ts";

/** Edit on a subscription row: the subscribe modal, filled in from the subscription. */
export const subscriptionEdit = onAction({
  id: ACTION.subscriptionEdit,
  access: "reader",
  inline: OPENS_MODAL,
  async run(ctx) {
    const sub = await loadSubscription(ctx.deps, ctx.ref, (ctx.action as ButtonAction).value ?? "");
    requireChange(await ctx.user(), sub, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref));
    await openSubscribeModal({
      ctx,
      triggerId: ctx.body.trigger_id,
      channelId: sub.channelId,
      edit: sub,
      fromHome: ctx.body.view?.type === "home",
    });
  },
});
