import type { RespondFn } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { refusesNative, withoutNative } from "../../blockkit/native.ts";
import { escapeMrkdwn, mrkdwn } from "../../blockkit/text.ts";
import type { Message } from "../../blockkit/types.ts";
import type { Logger } from "../../log.ts";
import type { WorkspaceRef } from "../../store/keys.ts";
import { errorReply } from "../error-reply.ts";
import { publishHome } from "../home.ts";
import { refusalOf } from "../refusal.ts";
import type { AppServices } from "../services.ts";
import type { Reply } from "./types.ts";

/** Where a request came from, as far as answering it goes. */
export interface Origin {
  userId: string;
  /** Set when Slack gave a response_url (commands, clicks on messages). */
  respond?: RespondFn;
  /** `home` or `modal` when the click came from a view. */
  viewType?: string;
  /** The conversation, when the request names one. */
  channelId?: string;
  /** A person's message (a DM, a mention): answers go to its thread. */
  threadTs?: string;
  /** Whether the clicked message is an ephemeral one (only those can be redrawn for one person). */
  ephemeral?: boolean;
}

interface ReplyDeps {
  deps: AppServices;
  client: WebClient;
  /** Unknown when the payload named no workspace: the Home tab cannot be re-published then. */
  ref?: WorkspaceRef;
  log: Logger;
}

/**
 * Answers on the surface a request came from: through response_url when there is one (ephemeral,
 * never rewriting a message others see); on the Home tab by re-publishing it with a notice; from a
 * modal, or anywhere without a channel, in the app's Messages tab (a DM); otherwise as an ephemeral
 * message in the channel. Delivery failures are logged, never thrown: the answer is the last step.
 */
export function replyFor(origin: Origin, r: ReplyDeps): Reply {
  const { client, log } = r;
  const dm = (message: Message) => client.chat.postMessage({ channel: origin.userId, ...message });
  const thread =
    origin.threadTs && origin.channelId ? { channel: origin.channelId, ts: origin.threadTs } : null;

  async function message(msg: Message, opts: { replace?: boolean } = {}): Promise<void> {
    try {
      if (thread) {
        await client.chat.postMessage({ channel: thread.channel, thread_ts: thread.ts, ...msg });
      } else if (origin.respond) {
        const replace = opts.replace === true && origin.ephemeral === true;
        await origin.respond({ ...msg, response_type: "ephemeral", replace_original: replace });
      } else if (origin.viewType === "home" || origin.viewType === "modal" || !origin.channelId) {
        await dm(msg);
      } else {
        await client.chat.postEphemeral({ channel: origin.channelId, user: origin.userId, ...msg });
      }
    } catch (err) {
      // A workspace or client without chart or table blocks: the same answer without them.
      const refusal = refusalOf(err);
      if (refusal && refusesNative(refusal, msg.blocks)) {
        log.warn({ refusal }, "chart or table refused; answering without them");
        return message(withoutNative(msg), opts);
      }
      log.warn({ err }, "could not deliver the reply");
    }
  }

  const onHome = origin.viewType === "home" && r.ref !== undefined;

  async function notice(text: string): Promise<void> {
    if (onHome && r.ref) {
      await publishHome(r.deps, client, r.ref, origin.userId, text);
      return;
    }
    await message({ text, blocks: [{ type: "section", text: mrkdwn(text) }] });
  }

  async function error(err: unknown): Promise<void> {
    const reply = errorReply(err, log);
    // In a channel's thread only the person who asked sees what went wrong.
    if (thread && !thread.channel.startsWith("D")) {
      await client.chat
        .postEphemeral({ channel: thread.channel, user: origin.userId, thread_ts: thread.ts, ...reply })
        .catch((e: unknown) => log.warn({ err: e }, "could not deliver the reply"));
      return;
    }
    if (onHome && r.ref) {
      await publishHome(r.deps, client, r.ref, origin.userId, `:warning: ${escapeMrkdwn(reply.text)}`);
      return;
    }
    await message(reply);
  }

  return { notice, message, error };
}
