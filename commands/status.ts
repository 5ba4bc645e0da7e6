import { isAppError } from "../src/errors.ts";
import { describeReason } from "../src/subscriptions/reasons.ts";
import { scheduleText } from "../src/subscriptions/schedule.ts";
import type { CommandContext, CommandHandler } from "./context.ts";

const SHOWN = 10;

/** One line per subscription with its schedule and last delivery, so status answers "did Monday's digest go out?". */
async function subscriptionLines(ctx: Pick<CommandContext, "deps" | "ref">): Promise<string[]> {
  const subs = await ctx.deps.subscriptions.list(ctx.ref);
  if (subs.length === 0) return ["*Subscriptions:* none. `/insights subscribe` sets one up."];
  const rows = subs.slice(0, SHOWN).map((s) => {
    const last = s.lastDelivery
      ? s.lastDelivery.outcome === "delivered"
        ? `last delivered ${s.lastDelivery.at.slice(0, 16).replace("T", " ")} UTC`
        : `last delivery failed ${s.lastDelivery.at.slice(0, 16).replace("T", " ")} UTC (${describeReason(s.lastDelivery.reason ?? "error").what})`
      : "not delivered yet";
    const state =
      s.status === "paused"
        ? ` · :double_vertical_bar: paused: ${describeReason(s.pausedReason ?? "paused_by_user").what}`
        : "";
    return `• \`${s.id}\` <#${s.channelId}> · ${scheduleText(s.schedule, s.time, s.tz)} · ${last}${state}`;
  });
  const more = subs.length > SHOWN ? [`…and ${subs.length - SHOWN} more: \`/insights subscriptions\``] : [];
  return [`*Subscriptions (${subs.length}):*`, ...rows, ...more];
}

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
  lines.push(...(await subscriptionLines(ctx)));
  await ctx.respond({ response_type: "ephemeral", text: lines.join("\n") });
};
