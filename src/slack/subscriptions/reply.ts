import { subscriptionList } from "../../../templates/subscriptions.ts";
import { mrkdwn } from "../../blockkit/text.ts";
import { BLOCK } from "../../ids.ts";
import type { ActionContext } from "../frame/index.ts";
import { LIST_PAGE, pageOffsetOf, subscriptionRows } from "./list.ts";

/** The page of the subscription list from `offset`, as this person may see and manage it. */
export async function listPage(ctx: ActionContext, offset: number) {
  const manager = await ctx.isManager();
  const rows = await subscriptionRows(ctx.deps, ctx.ref, ctx.body.channel?.id, offset, {
    userId: ctx.userId,
    manager,
  });
  return subscriptionList(rows, { canManage: manager, editable: true, offset, pageSize: LIST_PAGE });
}

/**
 * Subscription buttons live on two surfaces: the Home tab (answered by re-publishing it with a
 * notice) and the ephemeral list from `/insights subscriptions`, which is redrawn in place, on the
 * same page, with the notice above it.
 */
export async function answerOnList(ctx: ActionContext, notice: string): Promise<void> {
  const { body } = ctx;
  if (body.view?.type === "home" || !body.response_url || body.container?.is_ephemeral !== true) {
    await ctx.reply.notice(notice);
    return;
  }
  const list = await listPage(ctx, pageOffsetOf(body.actions[0]?.block_id, BLOCK.subscriptionRowPrefix));
  await ctx.reply.message(
    { text: list.text, blocks: [{ type: "section", text: mrkdwn(notice) }, ...list.blocks] },
    { replace: true },
  );
}
