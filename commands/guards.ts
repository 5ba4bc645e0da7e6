import { AppError } from "../src/errors.ts";
import { canManage, canRead, managersOnly } from "../src/slack/permissions.ts";
import type { CommandContext } from "./context.ts";

/** Throws `forbidden` unless the caller may connect the key and manage subscriptions. */
export async function requireManager(ctx: Pick<CommandContext, "user" | "deps" | "ref">): Promise<void> {
  const user = await ctx.user();
  if (!canManage(user, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref))) {
    throw new AppError("forbidden", managersOnly("do that"));
  }
}

/** Throws `forbidden` unless the caller may run on-demand digests. */
export async function requireReader(ctx: Pick<CommandContext, "user" | "deps" | "ref">): Promise<void> {
  const user = await ctx.user();
  if (!canRead(user, ctx.deps.policy, await ctx.deps.installerOf(ctx.ref))) {
    throw new AppError("forbidden", "On-demand digests are limited to admins in this workspace.");
  }
}
