import type { ButtonAction } from "@slack/bolt";
import { decodeState } from "../../../../templates/state.ts";
import { AppError } from "../../../errors.ts";
import type { AppServices } from "../../services.ts";
import { messageAction } from "./message-action.ts";
import { digestForState } from "../../digest-redraw.ts";

const NOT_IN_CHANNEL = new Set(["not_in_channel", "channel_not_found", "is_archived"]);

/** Posts the digest the user is looking at into the channel, as the bot, "Shared by @user". */
export function shareDigest(deps: AppServices) {
  return messageAction(deps, async ({ body, action, client, respond, ref }) => {
    const channel = body.channel?.id;
    if (!channel) throw new AppError("bad_request", "This digest is not in a channel.");
    const state = decodeState((action as ButtonAction).value);
    const message = await digestForState(deps, ref, client, body.user.id, state, {
      shareable: false,
      attribution: `Shared by <@${body.user.id}>`,
    });
    try {
      await client.chat.postMessage({ channel, ...message });
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      if (code && NOT_IN_CHANNEL.has(code)) {
        throw new AppError("not_in_channel", "I'm not in this channel, so I can't post here.");
      }
      throw err;
    }
    await respond({
      response_type: "ephemeral",
      replace_original: true,
      text: `:white_check_mark: Shared in <#${channel}>.`,
    });
  });
}
