import type { ButtonAction } from "@slack/bolt";
import { subscriptionList } from "../../../../templates/subscriptions.ts";
import { ACTION } from "../../../ids.ts";
import { onAction } from "../../frame/index.ts";
import { LIST_PAGE, subscriptionRows } from "../../subscriptions/list.ts";

/** "Next page" under the subscription list: the value is the first row of that page. */
export const subscriptionPage = onAction({
  id: ACTION.subscriptionsPage,
  access: "reader",
  async run(ctx) {
    const offset = Math.max(0, Math.floor(Number((ctx.action as ButtonAction).value) || 0));
    const manager = await ctx.isManager();
    const rows = await subscriptionRows(ctx.deps, ctx.ref, ctx.body.channel?.id, offset, {
      userId: ctx.userId,
      manager,
    });
    const list = subscriptionList(rows, {
      canManage: manager,
      editable: true,
      offset,
      pageSize: LIST_PAGE,
    });
    await ctx.reply.message(list, { replace: true });
  },
});
