import type { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";

/**
 * Slack's file upload since files.upload was retired, in its three steps: get an upload URL, POST
 * the bytes there, complete the upload. Completing with a channel shares the file there with its
 * comment (a CSV export); without one the file stays private until a message shows it (a chart's
 * image block). Only the last step puts anything on screen, so a run that lost its request to
 * another (see guard-client.ts) stops there. The worker and the Bolt side each bring their client.
 */
export interface UploadPort {
  call(method: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** POSTs the bytes to the URL files.getUploadURLExternal handed out. */
  upload(url: string, bytes: Uint8Array, contentType: string): Promise<void>;
}

/** A file to upload. */
export interface UploadFile {
  filename: string;
  title: string;
  bytes: Uint8Array;
  contentType: string;
  /** `alt_txt` of an image. */
  altText?: string;
}

/** Where to share it: the conversation and the message the file arrives with. */
export interface Share {
  channelId: string;
  comment?: string;
}

/** Uploads `file` (and shares it when `share` is given); returns the file id. */
export async function uploadExternal(port: UploadPort, file: UploadFile, share?: Share): Promise<string> {
  const got = await port.call("files.getUploadURLExternal", {
    filename: file.filename,
    length: String(file.bytes.length),
    ...(file.altText ? { alt_txt: file.altText } : {}),
  });
  const url = got.upload_url;
  const id = got.file_id;
  if (typeof url !== "string" || typeof id !== "string")
    throw new AppError("bad_response", "files.getUploadURLExternal answered without upload_url or file_id");
  await port.upload(url, file.bytes, file.contentType);
  await port.call("files.completeUploadExternal", {
    files: [{ id, title: file.title }],
    ...(share ? { channel_id: share.channelId } : {}),
    ...(share?.comment ? { initial_comment: share.comment } : {}),
  });
  return id;
}

/** The Bolt side's port: its (guarded) WebClient, and a plain POST of the bytes. */
export function webClientPort(client: WebClient, fetchImpl: typeof fetch = globalThis.fetch): UploadPort {
  return {
    call: async (method, args) => {
      const files = client.files as unknown as Record<
        string,
        (a: unknown) => Promise<Record<string, unknown>>
      >;
      const name = method.slice("files.".length);
      const f = files[name];
      if (!method.startsWith("files.") || !f)
        throw new AppError("bad_request", `not a files method: ${method}`);
      return f.call(client.files, args);
    },
    async upload(url, bytes, contentType) {
      const res = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": contentType },
        body: bytes,
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer().catch(() => undefined);
      if (res.status !== 200)
        throw new AppError("unavailable", `Slack did not take the file (HTTP ${res.status}).`);
    },
  };
}
