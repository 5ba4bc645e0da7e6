import { AppError } from "../../../src/errors.ts";

/**
 * A Web API failure: `code` becomes the reply's `error`; `details` are merged into the reply body
 * (`errors`, `response_metadata`, …) the way Slack adds them.
 */
export function slackError(code: string, details: Record<string, unknown> = {}): AppError {
  return new AppError(code, `Slack API error: ${code}`, { details });
}

export type Args = Record<string, unknown>;

/** A string argument, or undefined when absent or empty (Slack treats both the same). */
export function str(args: Args, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  const s = typeof v === "string" ? v : String(v);
  return s.length > 0 ? s : undefined;
}

/** Form posts carry booleans as strings; JSON posts as booleans. */
export function bool(args: Args, name: string): boolean {
  const v = args[name];
  return v === true || v === "true" || v === "1" || v === 1;
}

/**
 * A nested argument: a JSON string in form posts, a value in JSON posts. Malformed JSON answers
 * with `badJson` (Slack uses e.g. `invalid_blocks_format` for blocks).
 */
export function json(args: Args, name: string, badJson: string): unknown {
  const v = args[name];
  if (typeof v !== "string") return v ?? undefined;
  if (v.length === 0) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    throw slackError(badJson, { response_metadata: { messages: [`[ERROR] ${name} is not valid JSON`] } });
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Arguments never kept in the record: credentials. */
const SECRET_ARGS = new Set(["token", "client_secret", "refresh_token"]);

/** The args worth recording: nested JSON decoded, credentials dropped. */
export function recordableArgs(args: Args): Args {
  const out: Args = {};
  for (const [k, v] of Object.entries(args)) {
    if (SECRET_ARGS.has(k)) continue;
    if (typeof v === "string" && /^[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        // not JSON after all; keep the string
      }
    }
    out[k] = v;
  }
  return out;
}

/** Longest string argument a lean record keeps (ids, timestamps, short texts). */
const LEAN_STRING = 200;

/**
 * A lean record of a call's arguments: its scalars and short strings, and its metadata (what tells a
 * digest's delivery), without blocks, attachments or long texts.
 */
export function leanArgs(args: Args): Args {
  const out: Args = {};
  for (const [k, v] of Object.entries(args)) {
    if (SECRET_ARGS.has(k)) continue;
    if (k === "metadata") out[k] = recordableArgs({ metadata: v }).metadata;
    else if (typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (typeof v === "string" && v.length <= LEAN_STRING && !/^[[{]/.test(v)) out[k] = v;
  }
  return out;
}
