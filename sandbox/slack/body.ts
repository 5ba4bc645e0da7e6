import type { IncomingMessage } from "node:http";
import { AppError } from "../../src/errors.ts";
import { boundaryOf, type Part, parseMultipart } from "./multipart.ts";

/** Reads a whole request body, refusing more than `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new AppError("request_too_large", `request body over ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

export interface ParsedArgs {
  args: Record<string, unknown>;
  parts: Part[];
}

/**
 * Web API arguments from any of the encodings the SDKs use: form (nested fields JSON-encoded as
 * strings), JSON, or multipart (file bytes as parts). Query-string arguments count too, as in Slack.
 */
export function parseArgs(contentType: string, raw: Buffer, query: URLSearchParams): ParsedArgs {
  const args: Record<string, unknown> = Object.fromEntries(query);
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (raw.length === 0) return { args, parts: [] };
  if (type === "application/json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      throw new AppError("invalid_json", "body is not JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      throw new AppError("invalid_json", "JSON body must be an object");
    return { args: { ...args, ...parsed }, parts: [] };
  }
  if (type === "multipart/form-data") {
    const boundary = boundaryOf(contentType);
    if (!boundary) throw new AppError("invalid_form_data", "multipart body without boundary");
    const parts = parseMultipart(raw, boundary);
    for (const p of parts) if (p.filename === undefined) args[p.name] = p.data.toString("utf8");
    return { args, parts: parts.filter((p) => p.filename !== undefined) };
  }
  // Slack treats anything else as a form, which is also what curl sends by default.
  for (const [k, v] of new URLSearchParams(raw.toString("utf8"))) args[k] = v;
  return { args, parts: [] };
}
