import { echoBotPost } from "../assistant/client.ts";
import { clearStatusOnPost } from "../assistant/state.ts";
import { checkPostRate } from "../faults.ts";
import { addEphemeral, addMessage, findMessage, removeMessage, wireMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import type { ChannelMessage } from "../types.ts";
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

/**
 * The workspace's message edit setting, as Slack enforces it on chat.update (`edit_window_closed`).
 * Unset (the default) = messages can be edited at any time; tests set a window to drive the app's
 * fallback.
 */
const editWindows = new WeakMap<StandInState, number>();

export function setEditWindow(state: StandInState, ms: number | null): void {
  if (ms === null) editWindows.delete(state);
  else editWindows.set(state, ms);
}

/**
 * A reply's parent: a message of the same conversation that is not itself a reply. Slack asks apps
 * to use the parent's ts, never a reply's; the stand-in refuses both a reply's ts and an unknown one.
 */
function threadParent(ctx: ApiContext, channelId: string): ChannelMessage | undefined {
  const threadTs = str(ctx.args, "thread_ts");
  if (threadTs === undefined) return undefined;
  const parent = findMessage(ctx.state, channelId, threadTs);
  if (!parent || parent.threadTs !== undefined) throw slackError("thread_not_found");
  return parent;
}

function readMetadataOrEmpty(ctx: ApiContext): Record<string, unknown> | undefined {
  const value = json(ctx.args, "metadata", "invalid_metadata_format");
  if (isRecord(value) && Object.keys(value).length === 0) return undefined;
  return readMetadata(ctx);
}

const postMessage: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const ch = postableChannel(ws, str(ctx.args, "channel"), nowSec(ctx));
    const { text, blocks } = readMessage(ctx.args, { requireContent: true, ...filesOf(ctx) });
    threadParent(ctx, ch.id);
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
    clearStatusOnPost(ctx.state, ch.id, msg.threadTs);
    echoBotPost(ctx.state, ws, ch, msg, ctx.appId);
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

/**
 * Only the app's own messages can be edited or deleted by its bot token, and only by the
 * conversation's id: Slack wants the DM's D… id there, never a user id or a channel name.
 */
function ownMessage(ctx: ApiContext, denied: string) {
  const { ws } = authed(ctx);
  const ref = str(ctx.args, "channel") ?? "";
  if (!ws.channels.has(ref)) throw slackError("channel_not_found");
  const ch = visibleChannel(ws, ref, nowSec(ctx));
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
    const window = editWindows.get(ctx.state);
    if (window !== undefined && ctx.state.now() - Number(msg.ts) * 1000 > window)
      throw slackError("edit_window_closed");
    const { text, blocks } = readMessage(ctx.args, { requireContent: false, ...filesOf(ctx) });
    // Absent metadata is kept, as Slack keeps it; an empty object removes it.
    const metadata = ctx.args.metadata === undefined ? msg.metadata : readMetadataOrEmpty(ctx);
    if (text !== undefined) msg.text = text;
    if (blocks !== undefined) msg.blocks = blocks;
    msg.metadata = metadata;
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
