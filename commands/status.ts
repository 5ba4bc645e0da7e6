import { escapeMrkdwn } from "../src/blockkit/text.ts";
import { isAppError } from "../src/errors.ts";
import { visibleTo } from "../src/slack/home.ts";
import { describeReason } from "../src/subscriptions/reasons.ts";
import { scheduleText } from "../src/subscriptions/schedule.ts";
import type { Subscription } from "../src/subscriptions/types.ts";
import { feedbackText, whereText } from "../templates/subscription-words.ts";
import type { CommandContext, CommandHandler } from "./context.ts";

const SHOWN = 10;

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/** The last run in a few words: delivered, skipped and why, or failed and why. */
function lastWords(s: Subscription): string {
  const last = s.lastDelivery;
  if (!last) return "not delivered yet";
  if (last.outcome === "delivered") return `last delivered ${utc(last.at)}`;
  if (last.outcome === "skipped")
    return `last run ${utc(last.at)} skipped: ${escapeMrkdwn(last.reason ?? "")}`;
  return `last delivery failed ${utc(last.at)} (${describeReason(last.reason ?? "error").what})`;
}

/** What it posts when, if not every run: `alert when …` (and its state) or `only when …`. */
function runWords(s: Subscription): string {
  const cond = s.condition ? escapeMrkdwn(s.condition) : "";
  if (s.mode === "alert") {
    const useful = feedbackText(s.runs?.feedback);
    return ` · alert ${cond} (${s.runs?.alert && !s.runs.alert.untold ? s.runs.alert.state : "not checked yet"})${useful ? ` · ${useful}` : ""}`;
  }
  return cond ? ` · only ${cond}` : "";
}

/** One line per subscription with its schedule and last delivery, so status answers "did Monday's digest go out?". */
async function subscriptionLines(
  ctx: Pick<CommandContext, "deps" | "ref" | "userId" | "isManager">,
): Promise<string[]> {
  const subs = visibleTo(await ctx.deps.subscriptions.list(ctx.ref), ctx.userId, await ctx.isManager());
  if (subs.length === 0) return ["*Subscriptions:* none. `/insights subscribe` sets one up."];
  const rows = subs.slice(0, SHOWN).map((s) => {
    const last = lastWords(s);
    const state =
      s.status === "paused"
        ? ` · :double_vertical_bar: paused: ${describeReason(s.pausedReason ?? "paused_by_user").what}`
        : "";
    return `• \`${s.id}\` ${whereText(s.channelId, s.ownerId)} · ${scheduleText(s.schedule, s.time, s.tz)}${runWords(s)} · ${last}${state}`;
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
