import type { StandInState } from "./state.ts";
import type { StoredFile } from "./types.ts";

/**
 * Slack scans and processes an uploaded file after files.completeUploadExternal returns: for a
 * moment files.info shows it without a mimetype, and an image block naming it is refused with
 * `invalid_blocks` ("invalid slack file"). The stand-in keeps each file unprocessed for
 * `state.fileProcessingMs` (as set when its upload completed).
 */

/** True once the file is complete and its processing time has passed. */
export function isProcessed(state: StandInState, f: StoredFile): boolean {
  return f.readyAt !== undefined && state.now() >= f.readyAt;
}

/** Where the stand-in serves a file's bytes; also what a `slack_file.url` may name. */
export function fileUrl(baseUrl: string, f: StoredFile): string {
  return `${baseUrl}/files/${f.id}/${encodeURIComponent(f.filename)}`;
}

/**
 * Whether an image's `slack_file` ({ id } or { url }) names a processed file of this workspace, as
 * a message or view posted now would need.
 */
export function slackFileReady(state: StandInState, baseUrl: string, teamId: string) {
  return (ref: Record<string, unknown>): boolean => {
    const byId = typeof ref.id === "string" ? state.files.get(ref.id) : undefined;
    const f =
      byId ??
      (typeof ref.url === "string"
        ? [...state.files.values()].find((x) => fileUrl(baseUrl, x) === ref.url)
        : undefined);
    return f !== undefined && f.teamId === teamId && isProcessed(state, f);
  };
}
