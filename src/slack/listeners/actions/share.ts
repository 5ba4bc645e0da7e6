import type { ButtonAction } from "@slack/bolt";
import { digestMessage } from "../../../../templates/digest-message.ts";
import { decodeState } from "../../../../templates/state.ts";
import { mrkdwn } from "../../../blockkit/text.ts";
import { AppError } from "../../../errors.ts";
import { ACTION } from "../../../ids.ts";
import { digestViewForState } from "../../digest-redraw.ts";
import { onAction } from "../../frame/index.ts";
import { sendWithFallback } from "../../refusal.ts";

const NOT_IN_CHANNEL = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

/** Posts the digest the person is looking at into the channel, as the bot, "Shared by @user". */
export const shareDigest = onAction({
  id: ACTION.share,
  access: "reader",
  async run(ctx) {
    const channel = ctx.body.channel?.id;
    if (!channel)
      throw new AppError("bad_request", "This digest is not in a channel, so there is nowhere to share it.");
    const state = decodeState((ctx.action as ButtonAction).value);
    const view = await digestViewForState(ctx, state, {
      shareable: false,
      attribution: `Shared by <@${ctx.userId}>`,
    });
    try {
      await sendWithFallback(
        digestMessage(view),
        () => digestMessage({ ...view, chartStyle: "off" }),
        (message) => ctx.client.chat.postMessage({ channel, ...message }),
        (refusal) => ctx.log.warn({ refusal }, "chart or table refused; shared as text"),
      );
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      if (code && NOT_IN_CHANNEL.has(code)) {
        throw new AppError("not_in_channel", "I'm not in this channel, so I can't post here.");
      }
      throw err;
    }
    const text = `:white_check_mark: Shared in <#${channel}>.`;
    await ctx.reply.message({ text, blocks: [{ type: "section", text: mrkdwn(text) }] }, { replace: true });
  },
});
