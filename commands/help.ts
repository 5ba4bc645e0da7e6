import { canManage } from "../src/slack/permissions.ts";
import { helpMessage } from "../templates/help.ts";
import type { CommandHandler } from "./context.ts";

export const helpCommand: CommandHandler<"help"> = async (ctx) => {
  const user = await ctx.user();
  const manager = canManage(user, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref));
  await ctx.respond({
    response_type: "ephemeral",
    ...helpMessage({ commandName: ctx.body.command, canManage: manager }),
  });
};
