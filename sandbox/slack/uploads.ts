import { takeFault } from "./faults.ts";
import { boundaryOf, parseMultipart } from "./multipart.ts";
import type { StandInState } from "./state.ts";
import type { StoredFile } from "./types.ts";

export interface UploadAnswer {
  status: number;
  text: string;
}

/** The bytes and their type: the single file part of a multipart body, else the raw body. */
function payloadOf(contentType: string, raw: Buffer): { bytes: Buffer; type: string } | undefined {
  const boundary = contentType.toLowerCase().startsWith("multipart/") ? boundaryOf(contentType) : undefined;
  if (!boundary) return { bytes: raw, type: contentType.split(";")[0]?.trim() || "application/octet-stream" };
  const part = parseMultipart(raw, boundary).find((p) => p.filename !== undefined);
  return part ? { bytes: part.data, type: part.contentType ?? "application/octet-stream" } : undefined;
}

function store(
  state: StandInState,
  file: StoredFile | undefined,
  contentType: string,
  raw: Buffer,
): UploadAnswer {
  const fault = takeFault(state, "upload");
  if (fault) return { status: fault.kind === "http" ? fault.status : 500, text: fault.error };
  if (!file) return { status: 404, text: "file not found" };
  const payload = payloadOf(contentType, raw);
  if (!payload) return { status: 400, text: "no file part in multipart body" };
  file.bytes = payload.bytes;
  file.size = payload.bytes.length;
  file.contentType = payload.type;
  return { status: 200, text: `OK - ${file.size}` };
}

/**
 * The upload URL handed out by files.getUploadURLExternal. Takes the bytes raw or as a multipart
 * file part (what the WebClient sends) and records size and content type as method `upload`.
 */
export function receiveUpload(
  state: StandInState,
  fileId: string,
  contentType: string,
  raw: Buffer,
): UploadAnswer {
  const file = state.files.get(fileId);
  const answer = store(state, file, contentType, raw);
  state.calls.push({
    method: "upload",
    teamId: file?.teamId,
    args: { file_id: fileId, size: file?.size, content_type: file?.contentType },
    at: state.now(),
    ok: answer.status === 200,
    error: answer.status === 200 ? undefined : answer.text,
    status: answer.status,
  });
  return answer;
}
