import type { ButtonAction } from "@slack/bolt";
import { ACTION } from "../../../ids.ts";
import { onAction } from "../../frame/index.ts";
import { listPage } from "../../subscriptions/reply.ts";

/** "Next page" under the subscription list: the value is the first row of that page. */
export const subscriptionPage = onAction({
  id: ACTION.subscriptionsPage,
  access: "reader",
  async run(ctx) {
    const offset = Math.max(0, Math.floor(Number((ctx.action as ButtonAction).value) || 0));
    const list = await listPage(ctx, offset);
    await ctx.reply.message(list, { replace: true });
  },
});
