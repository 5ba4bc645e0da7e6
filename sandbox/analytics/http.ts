import type { IncomingMessage, ServerResponse } from "node:http";
import { AppError } from "../../src/errors.ts";

/** Request bodies above this are refused with 413; real queries are a few KB. */
export const MAX_BODY_BYTES = 1_048_576;

/** Reads a whole request body as UTF-8, refusing oversized ones with code `body_too_large`. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new AppError("body_too_large", `Request body over ${limit} bytes.`));
        req.removeAllListeners("data");
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Sends a body with a status and headers, unless the socket is already gone (client gave up). */
export function send(
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.headersSent) return;
  // Set apart from writeHead so the emulator's byte accounting can read it back.
  res.setHeader("content-length", String(Buffer.byteLength(body)));
  res.writeHead(status, headers);
  res.end(body);
}

/** A JSON `{errors: [{message, extensions?}]}` reply, the shape GraphQL clients look for. */
export function sendErrors(
  res: ServerResponse,
  status: number,
  message: string,
  extra: { code?: string; headers?: Record<string, string> } = {},
): void {
  const error = extra.code ? { message, extensions: { code: extra.code } } : { message };
  send(res, status, JSON.stringify({ errors: [error] }), {
    "content-type": "application/json; charset=utf-8",
    ...extra.headers,
  });
}

/** Header values as one string each (repeated headers joined), for `lastRequest()`. */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
