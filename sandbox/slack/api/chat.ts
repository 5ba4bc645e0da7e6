import { checkPostRate } from "../faults.ts";
import { addEphemeral, addMessage, findMessage, removeMessage, wireMessage } from "../messages.ts";
import { isRecord, json, slackError, str } from "./args.ts";
import { postableChannel, visibleChannel } from "./channels.ts";
import { filesOf, readMessage } from "./content.ts";
import { type ApiContext, type ApiMethod, authed } from "./context.ts";

const nowSec = (ctx: ApiContext) => Math.floor(ctx.state.now() / 1000);

/** `metadata` as Slack takes it: an object (JSON body) or its JSON text (form body) with an event_type. */
function readMetadata(ctx: ApiContext): Record<string, unknown> | undefined {
  if (ctx.args.metadata === undefined) return undefined;
  const value = json(ctx.args, "metadata", "invalid_metadata_format");
  if (!isRecord(value) || typeof value.event_type !== "string") throw slackError("invalid_metadata_format");
  return value;
}

const postMessage: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const ch = postableChannel(ws, str(ctx.args, "channel"), nowSec(ctx));
    const { text, blocks } = readMessage(ctx.args, { requireContent: true, ...filesOf(ctx) });
    checkPostRate(ctx.state, ch.id);
    const msg = addMessage(ctx.state, {
      channelId: ch.id,
      teamId: ws.teamId,
      text,
      blocks,
      user: ws.botUserId,
      botId: ws.botId,
      threadTs: str(ctx.args, "thread_ts"),
      files: undefined,
      via: "chat.postMessage",
      metadata: readMetadata(ctx),
    });
    return { channel: ch.id, ts: msg.ts, message: wireMessage(msg, ctx.appId) };
  },
};

const postEphemeral: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const ch = postableChannel(ws, str(ctx.args, "channel"), nowSec(ctx));
    const userId = str(ctx.args, "user");
    if (!userId || !ws.users.has(userId)) throw slackError("user_not_found");
    if (!ch.members.has(userId)) throw slackError("user_not_in_channel");
    const { text, blocks } = readMessage(ctx.args, { requireContent: true, ...filesOf(ctx) });
    const msg = addEphemeral(ctx.state, {
      userId,
      channelId: ch.id,
      teamId: ws.teamId,
      text,
      blocks,
      via: "chat.postEphemeral",
    });
    return { message_ts: msg.ts };
  },
};

/** Only the app's own messages can be edited or deleted by its bot token. */
function ownMessage(ctx: ApiContext, denied: string) {
  const { ws } = authed(ctx);
  const ch = visibleChannel(ws, str(ctx.args, "channel"), nowSec(ctx));
  if (ch.archived) throw slackError("is_archived");
  const msg = findMessage(ctx.state, ch.id, str(ctx.args, "ts") ?? "");
  if (!msg) throw slackError("message_not_found");
  if (msg.botId !== ws.botId) throw slackError(denied);
  return { ch, msg };
}

const update: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ch, msg } = ownMessage(ctx, "cant_update_message");
    const { text, blocks } = readMessage(ctx.args, { requireContent: false, ...filesOf(ctx) });
    if (text !== undefined) msg.text = text;
    if (blocks !== undefined) msg.blocks = blocks;
    msg.editedAt = ctx.state.now();
    return { channel: ch.id, ts: msg.ts, text: msg.text ?? "", message: wireMessage(msg, ctx.appId) };
  },
};

const remove: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ch, msg } = ownMessage(ctx, "cant_delete_message");
    removeMessage(ctx.state, ch.id, msg.ts);
    return { channel: ch.id, ts: msg.ts };
  },
};

export const chatMethods: Record<string, ApiMethod> = {
  "chat.postMessage": postMessage,
  "chat.postEphemeral": postEphemeral,
  "chat.update": update,
  "chat.delete": remove,
};
