import { connectModal } from "../templates/connect-modal.ts";
import type { CommandHandler } from "./context.ts";

/** Opens the API key modal. The key is typed there, never in a channel. */
export const connectCommand: CommandHandler<"connect"> = async (ctx) => {
  const endpoint = await ctx.deps.analytics.endpoint().catch(() => undefined);
  await ctx.client.views.open({
    trigger_id: ctx.body.trigger_id,
    view: connectModal({ endpoint, privateMetadata: JSON.stringify({ channel: ctx.body.channel_id }) }),
  });
};
