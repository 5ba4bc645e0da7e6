import { isRecord, json, slackError, str } from "../api/args.ts";
import { visibleChannel } from "../api/channels.ts";
import { type ApiContext, type ApiMethod, authed } from "../api/context.ts";
import { checkUnfurlBlocks } from "../blockkit/index.ts";
import { findMessage } from "../messages.ts";
import type { LinkShare } from "./types.ts";

const nowSec = (ctx: ApiContext) => Math.floor(ctx.state.now() / 1000);

/** The shared message a chat.unfurl call names: `channel` + `ts`, or `unfurl_id` + `source`. */
function shareFor(ctx: ApiContext): LinkShare {
  const { ws } = authed(ctx);
  const unfurlId = str(ctx.args, "unfurl_id");
  const source = str(ctx.args, "source");
  if (unfurlId || source) {
    if (!unfurlId || !source) throw slackError("invalid_arguments");
    const share = ctx.state.linkShares.get(unfurlId);
    if (!share || share.teamId !== ws.teamId || share.source !== source)
      throw slackError("cannot_find_message");
    return share;
  }
  const channel = str(ctx.args, "channel");
  const ts = str(ctx.args, "ts");
  if (!channel) throw slackError("missing_channel");
  if (!ts) throw slackError("missing_ts");
  let ch: ReturnType<typeof visibleChannel>;
  try {
    ch = visibleChannel(ws, channel, nowSec(ctx));
  } catch {
    throw slackError("cannot_find_channel");
  }
  const share = [...ctx.state.linkShares.values()].find((s) => s.channelId === ch.id && s.ts === ts);
  if (!share)
    throw slackError(findMessage(ctx.state, ch.id, ts) ? "cannot_unfurl_message" : "cannot_find_message");
  return share;
}

/**
 * chat.unfurl: `unfurls` maps URLs of the shared message to blocks (or a legacy attachment). Only
 * URLs Slack sent in link_shared may be unfurled (`cannot_unfurl_url`); blocks are checked by the
 * stand-in's own Block Kit check as an attachment's (`invalid_blocks`): no block Slack documents for
 * messages only (charts, tables, markdown).
 */
const unfurl: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const share = shareFor(ctx);
    if (ctx.args.unfurls === undefined || ctx.args.unfurls === "") throw slackError("missing_unfurls");
    const unfurls = json(ctx.args, "unfurls", "invalid_unfurls_format");
    if (!isRecord(unfurls)) throw slackError("invalid_unfurls_format");
    for (const [url, value] of Object.entries(unfurls)) {
      if (!share.links.some((l) => l.url === url)) throw slackError("cannot_unfurl_url");
      if (!isRecord(value)) throw slackError("cannot_parse_attachment");
      if (value.blocks !== undefined) {
        const problems = Array.isArray(value.blocks)
          ? checkUnfurlBlocks(value.blocks, { refuse: ctx.state.refusedBlocks })
          : ["must provide an array [json-pointer:/blocks]"];
        if (problems.length > 0)
          throw slackError("invalid_blocks", {
            errors: problems,
            response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) },
          });
      } else if (typeof value.text !== "string" && typeof value.title !== "string") {
        throw slackError("cannot_parse_attachment");
      }
    }
    for (const [url, value] of Object.entries(unfurls)) share.unfurls[url] = value as Record<string, unknown>;
    return {};
  },
};

/** chat.getPermalink: the message's link in the workspace's domain. */
const getPermalink: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const ch = visibleChannel(ws, str(ctx.args, "channel"), nowSec(ctx));
    const ts = str(ctx.args, "message_ts") ?? "";
    if (!findMessage(ctx.state, ch.id, ts)) throw slackError("message_not_found");
    return {
      channel: ch.id,
      permalink: `https://${ws.domain}.slack.com/archives/${ch.id}/p${ts.replace(".", "")}`,
    };
  },
};

export const unfurlMethods: Record<string, ApiMethod> = {
  "chat.unfurl": unfurl,
  "chat.getPermalink": getPermalink,
};
