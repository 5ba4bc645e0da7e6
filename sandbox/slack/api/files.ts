import { fileUrl, isProcessed } from "../file-status.ts";
import { addMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import type { StoredFile } from "../types.ts";
import { isRecord, json, slackError, str } from "./args.ts";
import { postableChannel } from "./channels.ts";
import { filesOf, readMessage } from "./content.ts";
import { type ApiContext, type ApiMethod, authed } from "./context.ts";

/** Where the stand-in accepts the bytes of an upload (`POST`, raw or multipart). */
export const UPLOAD_PATH = "/upload/v1/";

/** files.getUploadURLExternal refuses a longer `alt_txt` with `alt_txt_too_large`. */
const ALT_TXT_MAX = 1_000;

/** Width and height from a PNG's IHDR chunk, as Slack reports them once it processed the image. */
function pngSize(bytes: Buffer | undefined): { original_w: number; original_h: number } | undefined {
  if (!bytes || bytes.length < 24 || bytes.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return { original_w: bytes.readUInt32BE(16), original_h: bytes.readUInt32BE(20) };
}

/** The file object; before processing Slack leaves out what it learns by processing (type, size of the image). */
function wireFile(state: StandInState, f: StoredFile, baseUrl: string): Record<string, unknown> {
  const ext = /\.([A-Za-z0-9]+)$/.exec(f.filename)?.[1]?.toLowerCase() ?? "binary";
  const processed = isProcessed(state, f);
  return {
    id: f.id,
    name: f.filename,
    title: f.title ?? f.filename,
    mimetype: processed ? (f.contentType ?? "application/octet-stream") : "",
    filetype: processed ? ext : "",
    size: f.size ?? 0,
    channels: f.channels,
    url_private: fileUrl(baseUrl, f),
    ...(processed && f.contentType === "image/png" ? pngSize(f.bytes) : {}),
    ...(f.altText ? { alt_txt: f.altText } : {}),
  };
}

/** A file of the caller's workspace; `file_not_found` for others and for uploads never completed. */
function teamFile(ctx: ApiContext, id: string | undefined, completedOnly: boolean): StoredFile {
  const f = ctx.state.files.get(id ?? "");
  if (!f || f.teamId !== authed(ctx).ws.teamId || (completedOnly && !f.completed))
    throw slackError("file_not_found");
  return f;
}

const getUploadUrl: ApiMethod = {
  auth: "bot",
  run(ctx) {
    const { ws } = authed(ctx);
    const filename = str(ctx.args, "filename");
    const length = Number(str(ctx.args, "length"));
    if (!filename || !Number.isInteger(length)) throw slackError("invalid_arguments");
    if (length < 1) throw slackError("missing_argument");
    // `alt_txt` is the files API's name; an `alt_text` argument is ignored, as Slack ignores it.
    const altText = str(ctx.args, "alt_txt");
    if (altText !== undefined && altText.length > ALT_TXT_MAX) throw slackError("alt_txt_too_large");
    const id = ctx.state.ids.fileId();
    ctx.state.files.set(id, {
      id,
      teamId: ws.teamId,
      filename,
      title: undefined,
      declaredLength: length,
      altText,
      size: undefined,
      contentType: undefined,
      bytes: undefined,
      completed: false,
      readyAt: undefined,
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
      const f = teamFile(ctx, typeof entry.id === "string" ? entry.id : undefined, false);
      // Slack refuses to complete a file whose bytes never arrived.
      if (f.size === undefined) throw slackError("file_not_found");
      return { f, title: typeof entry.title === "string" ? entry.title : undefined };
    });
    const channelRef = str(ctx.args, "channel_id") ?? str(ctx.args, "channels");
    const ch = channelRef ? postableChannel(ws, channelRef, Math.floor(ctx.state.now() / 1000)) : undefined;
    const initialComment = str(ctx.args, "initial_comment");
    const { blocks } = readMessage({ blocks: ctx.args.blocks }, { requireContent: false, ...filesOf(ctx) });
    for (const { f, title } of files) {
      f.title = title ?? f.title;
      if (!f.completed) f.readyAt = ctx.state.now() + ctx.state.fileProcessingMs;
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
    return { files: files.map(({ f }) => wireFile(ctx.state, f, ctx.baseUrl)) };
  },
};

export const fileMethods: Record<string, ApiMethod> = {
  "files.getUploadURLExternal": getUploadUrl,
  "files.completeUploadExternal": completeUpload,
  "files.info": {
    auth: "bot",
    run: (ctx) => ({ file: wireFile(ctx.state, teamFile(ctx, str(ctx.args, "file"), true), ctx.baseUrl) }),
  },
};
