import { escapeMrkdwn } from "../blockkit/text.ts";
import { digestCsv } from "../insights/csv.ts";
import type { DigestView } from "../insights/types.ts";
import { codeOf } from "../metrics.ts";
import { uploadExternal, webClientPort } from "./file-upload.ts";
import type { RequestContext } from "./frame/index.ts";
import { openDm } from "./subscriptions/personal.ts";

/** Slack's answers when the bot cannot share into a conversation: the person's DM is the fallback. */
const CANNOT_SHARE = new Set(["not_in_channel", "channel_not_found", "is_archived", "restricted_action"]);

/** The file name of a digest's series: `insights-2026-11-01-to-2026-11-30.csv`. */
const csvFilename = (view: DigestView) => `insights-${view.digest.range.from}-to-${view.digest.range.to}.csv`;

/**
 * Uploads a digest's daily series as CSV into `channelId`, or, when the app cannot share there (not a
 * member, a DM between people, no channel at all), into the person's DM with the app. Returns where
 * it went, as mrkdwn for the confirmation.
 */
export async function exportCsv(
  ctx: Pick<RequestContext, "client" | "userId" | "log">,
  view: DigestView,
  channelId: string | undefined,
): Promise<string> {
  const csv = new TextEncoder().encode(digestCsv(view));
  const days = view.digest.series.length;
  const label = view.digest.range.label;
  const file = {
    filename: csvFilename(view),
    title: `Insights daily series, ${label}`,
    bytes: csv,
    contentType: "text/csv",
  };
  const comment = `:page_facing_up: Daily findings, violations, fixes and merged violations, ${escapeMrkdwn(label)} (${days} day${days === 1 ? "" : "s"}), exported by <@${ctx.userId}>.`;
  const port = webClientPort(ctx.client);
  if (channelId && /^[CG]/.test(channelId)) {
    try {
      await uploadExternal(port, file, { channelId, comment });
      return `<#${channelId}>`;
    } catch (err) {
      const code = codeOf(err);
      if (!CANNOT_SHARE.has(code)) throw err;
      ctx.log.info({ code }, "cannot share the export in the channel; sending it by DM");
    }
  }
  await uploadExternal(port, file, { channelId: await openDm(ctx.client, ctx.userId), comment });
  return "your direct messages with the app";
}

/** The confirmation after an export. */
export const exportedText = (view: DigestView, where: string) =>
  `:white_check_mark: Exported the daily series of ${escapeMrkdwn(view.digest.range.label)} (${view.digest.series.length} rows) as CSV to ${where}.`;
