import { isAppError } from "../src/errors.ts";
import type { CommandHandler } from "./context.ts";

/** Key health, endpoint and who connected it; never the key itself. */
export const statusCommand: CommandHandler<"status"> = async (ctx) => {
  const status = await ctx.deps.apiKeys.status(ctx.ref);
  const endpoint = await ctx.deps.analytics.endpoint().catch(() => "not reachable");
  const lines = [`*Analytics endpoint:* ${endpoint}`];
  if (!status) {
    lines.push("*API key:* not connected. An admin can run `/insights connect`.");
  } else {
    let health = ":white_check_mark: accepted by the service";
    try {
      const key = await ctx.deps.digests.apiKey(ctx.ref);
      await ctx.deps.analytics.verifyKey(key);
    } catch (err) {
      health = `:warning: ${isAppError(err) ? err.code : "error"}: ${isAppError(err) ? err.message : "check failed"}`;
    }
    lines.push(`*API key:* connected by <@${status.savedBy}> on ${status.savedAt.slice(0, 10)} — ${health}`);
    if (status.keyId) lines.push(`*Encrypted with key:* \`${status.keyId}\``);
  }
  await ctx.respond({ response_type: "ephemeral", text: lines.join("\n") });
};
