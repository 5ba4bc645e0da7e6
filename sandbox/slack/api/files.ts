import { addMessage } from "../messages.ts";
import type { StoredFile } from "../types.ts";
import { isRecord, json, slackError, str } from "./args.ts";
import { postableChannel } from "./channels.ts";
import { readMessage } from "./content.ts";
import { type ApiContext, type ApiMethod, authed } from "./context.ts";

/** Where the stand-in accepts the bytes of an upload (`POST`, raw or multipart). */
export const UPLOAD_PATH = "/upload/v1/";

function wireFile(f: StoredFile, baseUrl: string): Record<string, unknown> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(f.filename)?.[1]?.toLowerCase() ?? "binary";
  return {
    id: f.id,
    name: f.filename,
    title: f.title ?? f.filename,
    mimetype: f.contentType ?? "application/octet-stream",
    filetype: ext,
    size: f.size ?? 0,
    channels: f.channels,
    url_private: `${baseUrl}/files/${f.id}/${encodeURIComponent(f.filename)}`,
    ...(f.altText ? { alt_txt: f.altText } : {}),
  };
}

function teamFile(ctx: ApiContext, id: string | undefined): StoredFile {
  const f = ctx.state.files.get(id ?? "");
  if (!f || f.teamId !== authed(ctx).ws.teamId) throw slackError("file_not_found");
  return f;
}

const getUploadUrl: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const filename = str(ctx.args, "filename");
    const length = Number(str(ctx.args, "length"));
    if (!filename || !Number.isInteger(length) || length < 1) throw slackError("invalid_arguments");
    const id = ctx.state.ids.fileId();
    ctx.state.files.set(id, {
      id,
      teamId: ws.teamId,
      filename,
      title: undefined,
      declaredLength: length,
      altText: str(ctx.args, "alt_text"),
      size: undefined,
      contentType: undefined,
      bytes: undefined,
      completed: false,
      channels: [],
      initialComment: undefined,
    });
    return { upload_url: `${ctx.baseUrl}${UPLOAD_PATH}${id}`, file_id: id };
  },
};

const completeUpload: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const list = json(ctx.args, "files", "invalid_arguments");
    if (!Array.isArray(list) || list.length === 0 || !list.every(isRecord))
      throw slackError("invalid_arguments");
    const files = list.map((entry) => {
      const f = teamFile(ctx, typeof entry.id === "string" ? entry.id : undefined);
      // Slack refuses to complete a file whose bytes never arrived.
      if (f.size === undefined) throw slackError("file_not_found");
      return { f, title: typeof entry.title === "string" ? entry.title : undefined };
    });
    const channelRef = str(ctx.args, "channel_id") ?? str(ctx.args, "channels");
    const ch = channelRef ? postableChannel(ws, channelRef, Math.floor(ctx.state.now() / 1000)) : undefined;
    const initialComment = str(ctx.args, "initial_comment");
    const { blocks } = readMessage({ blocks: ctx.args.blocks }, { requireContent: false });
    for (const { f, title } of files) {
      f.title = title ?? f.title;
      f.completed = true;
      f.initialComment = initialComment;
      if (ch) f.channels.push(ch.id);
    }
    if (ch)
      addMessage(ctx.state, {
        channelId: ch.id,
        teamId: ws.teamId,
        text: initialComment,
        blocks,
        user: ws.botUserId,
        botId: ws.botId,
        threadTs: str(ctx.args, "thread_ts"),
        files: files.map(({ f }) => f.id),
        via: "files.completeUploadExternal",
      });
    return { files: files.map(({ f }) => wireFile(f, ctx.baseUrl)) };
  },
};

export const fileMethods: Record<string, ApiMethod> = {
  "files.getUploadURLExternal": getUploadUrl,
  "files.completeUploadExternal": completeUpload,
  "files.info": {
    auth: "bot",
    run: (ctx) => ({ file: wireFile(teamFile(ctx, str(ctx.args, "file")), ctx.baseUrl) }),
  },
};
