import { uploadExternal } from "../slack/file-upload.ts";
import type { SlackApi } from "./slack-api.ts";

/** A rendered chart and the names Slack shows for it. */
export interface ChartFile {
  png: Uint8Array;
  filename: string;
  title: string;
  altText: string;
}

/**
 * Uploads a chart without sharing it (so it is not posted on its own), and returns the file id for
 * an image block's `slack_file`.
 */
export function uploadChart(slack: SlackApi, token: string, file: ChartFile): Promise<string> {
  return uploadExternal(
    { call: (method, args) => slack.call(token, method, args), upload: (u, b, t) => slack.upload(u, b, t) },
    {
      filename: file.filename,
      title: file.title,
      bytes: file.png,
      contentType: "image/png",
      altText: file.altText,
    },
  );
}
