import { exportComment } from "../../templates/export-comment.ts";
import { escapeMrkdwn } from "../blockkit/text.ts";
import { csvFilename, digestCsv } from "../insights/csv.ts";
import type { DigestView } from "../insights/types.ts";
import { codeOf } from "../metrics.ts";
import { uploadExternal, webClientPort } from "./file-upload.ts";
import type { RequestContext } from "./frame/index.ts";
import { openDm } from "./subscriptions/personal.ts";

/** Slack's answers when the bot cannot share into a conversation: the person's DM is the fallback. */
const CANNOT_SHARE = new Set(["not_in_channel", "channel_not_found", "is_archived", "restricted_action"]);

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
  const file = {
    filename: csvFilename(view),
    title: `Insights daily series, ${view.digest.range.label}`,
    bytes: csv,
    contentType: "text/csv",
  };
  const comment = exportComment(view, ctx.userId);
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
