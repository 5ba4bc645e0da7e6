import type { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";

/** A file to share in a conversation. */
export interface SharedFile {
  channelId: string;
  filename: string;
  title: string;
  bytes: Uint8Array;
  contentType: string;
  /** The message the file arrives with. */
  comment?: string;
}

/**
 * Shares a file in a conversation the way Slack wants since files.upload was retired, the same three
 * steps the worker takes for charts: get an upload URL, POST the bytes there, complete the upload with
 * the channel (which posts it). Only the last step puts anything on screen, so a run that lost its
 * request to another (see guard-client.ts) stops there.
 */
export async function shareFile(
  client: WebClient,
  file: SharedFile,
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<string> {
  const got = await client.files.getUploadURLExternal({ filename: file.filename, length: file.bytes.length });
  const url = got.upload_url;
  const id = got.file_id;
  if (typeof url !== "string" || typeof id !== "string")
    throw new AppError("bad_response", "files.getUploadURLExternal answered without upload_url or file_id");
  const res = await fetchImpl(url, {
    method: "POST",
    headers: { "content-type": file.contentType },
    body: file.bytes,
    signal: AbortSignal.timeout(10_000),
  });
  await res.arrayBuffer().catch(() => undefined);
  if (res.status !== 200)
    throw new AppError("unavailable", `Slack did not take the file (HTTP ${res.status}).`);
  await client.files.completeUploadExternal({
    files: [{ id, title: file.title }],
    channel_id: file.channelId,
    ...(file.comment ? { initial_comment: file.comment } : {}),
  });
  return id;
}
