import { answerInThread } from "../../ask.ts";
import { type MessageContext, type MessageEntry, onMessage } from "../../frame/index.ts";

/**
 * Questions in plain words: a DM to the app (its Messages tab) and a mention in a channel, answered
 * in the message's thread. Readers only, as for `/insights`; reading and answering is digest work,
 * so it runs in the digest executor (the frame's default), where the access level is applied too.
 */
const ask = (ctx: MessageContext) =>
  answerInThread(
    ctx,
    ctx.message.text,
    { channelId: ctx.message.channelId, threadTs: ctx.message.threadTs },
    { botUserId: ctx.message.botUserId },
  );

export const MESSAGES: MessageEntry[] = [
  onMessage({ id: "message", access: "reader", run: ask }),
  onMessage({ id: "app_mention", access: "reader", run: ask }),
];
