import type { CommandHandler } from "./context.ts";

/** Deletes the workspace's API key and its cached replies. */
export const disconnectCommand: CommandHandler<"disconnect"> = async (ctx) => {
  const removed = await ctx.deps.apiKeys.remove(ctx.ref);
  await ctx.deps.insightsCache.invalidate(ctx.ref);
  ctx.deps.logger.info({ teamId: ctx.ref.teamId, userId: ctx.body.user_id, removed }, "api key disconnected");
  await ctx.respond({
    response_type: "ephemeral",
    text: removed
      ? ":white_check_mark: The platform API key was removed. Digests stop until an admin runs `/insights connect` again."
      : "There was no API key to remove. Run `/insights connect` to add one.",
  });
};
