import { canManage } from "../src/slack/permissions.ts";
import { LIST_PAGE, subscriptionRows } from "../src/slack/subscriptions/list.ts";
import { subscriptionList } from "../templates/subscriptions.ts";
import type { CommandHandler } from "./context.ts";

/** `/insights subscriptions`: every subscription of the workspace, this channel's first; buttons for managers. */
export const subscriptionsCommand: CommandHandler<"subscriptions"> = async (ctx) => {
  const user = await ctx.user();
  const manager = canManage(user, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref));
  const rows = await subscriptionRows(ctx.deps, ctx.ref, ctx.body.channel_id, 0, {
    userId: ctx.userId,
    manager,
  });
  await ctx.respond({
    response_type: "ephemeral",
    ...subscriptionList(rows, { canManage: manager, editable: true, pageSize: LIST_PAGE }),
  });
};
