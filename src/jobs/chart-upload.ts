import { AppError } from "../errors.ts";
import type { SlackApi } from "./slack-api.ts";

/** A rendered chart and the names Slack shows for it. */
export interface ChartFile {
  png: Uint8Array;
  filename: string;
  title: string;
  altText: string;
}

/**
 * Uploads a chart the way Slack wants since files.upload was retired: get an upload URL, POST the
 * bytes, complete the upload without a channel (so it is not posted on its own), and return the file
 * id for an image block's `slack_file`.
 */
export async function uploadChart(slack: SlackApi, token: string, file: ChartFile): Promise<string> {
  const got = await slack.call(token, "files.getUploadURLExternal", {
    filename: file.filename,
    length: String(file.png.length),
    alt_txt: file.altText,
  });
  const url = got.upload_url;
  const id = got.file_id;
  if (typeof url !== "string" || typeof id !== "string")
    throw new AppError("bad_response", "files.getUploadURLExternal answered without upload_url or file_id");
  await slack.upload(url, file.png, "image/png");
  await slack.call(token, "files.completeUploadExternal", { files: [{ id, title: file.title }] });
  return id;
}
