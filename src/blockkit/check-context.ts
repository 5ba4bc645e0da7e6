import { LIMITS } from "./limit-values.ts";

/**
 * Shared state and primitives of the payload checker. Everything here takes `unknown` and reports
 * problems as strings instead of throwing: the checker must survive any junk a caller hands it.
 */

/** Where blocks go; `unfurl` is a link preview (an attachment of someone else's message). */
export type BlockSurface = "message" | "modal" | "home" | "unfurl";

export interface CheckContext {
  surface: BlockSurface;
  problems: string[];
  blockIds: Set<string>;
  /** Sum of every text object's length, for the message-wide text budget. */
  textTotal: number;
  /** Blocks of each type so far (one table and a chart per message). */
  typeCounts: Map<string, number>;
}

export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

/** True when the field is absent (reported when it is `required`): nothing more to check then. */
function isAbsent(ctx: CheckContext, v: unknown, path: string, required: boolean | undefined): boolean {
  if (v !== undefined) return false;
  if (required) ctx.problems.push(`${path} is required`);
  return true;
}

/** Reports a string field over `max` (or of the wrong type); absent fields are fine unless `required`. */
export function checkString(
  ctx: CheckContext,
  v: unknown,
  path: string,
  max: number,
  opts: { required?: boolean; min?: number } = {},
): void {
  checkSized(ctx, v, path, max, opts, STRING);
}

/** Reports an array over `max` entries (or empty when `min` is 1); returns the array or null. */
export function checkArray(
  ctx: CheckContext,
  v: unknown,
  path: string,
  max: number,
  opts: { required?: boolean; min?: number } = {},
): unknown[] | null {
  return checkSized(ctx, v, path, max, opts, ARRAY);
}

interface Sized<T> {
  is: (v: unknown) => v is T;
  what: string;
  /** How a problem states the size, e.g. "is 12 characters". */
  size: (n: number) => string;
}
const STRING: Sized<string> = {
  is: (v) => typeof v === "string",
  what: "a string",
  size: (n) => `is ${fmt(n)} characters`,
};
const ARRAY: Sized<unknown[]> = { is: Array.isArray, what: "an array", size: (n) => `has ${fmt(n)} entries` };

/** Strings and arrays are checked alike: present if required, the right type, length within bounds. */
function checkSized<T extends { length: number }>(
  ctx: CheckContext,
  v: unknown,
  path: string,
  max: number,
  opts: { required?: boolean; min?: number },
  sized: Sized<T>,
): T | null {
  if (isAbsent(ctx, v, path, opts.required)) return null;
  if (!sized.is(v)) {
    ctx.problems.push(`${path} must be ${sized.what}`);
    return null;
  }
  if (v.length > max) ctx.problems.push(`${path} ${sized.size(v.length)}, over ${fmt(max)}`);
  if (v.length < (opts.min ?? 0)) ctx.problems.push(`${path} must not be empty`);
  return v;
}

/**
 * Checks a text object: `type` plain_text or mrkdwn (only plain_text when `plainOnly`), a non-empty
 * `text` within `max`, and no field that belongs to the other type.
 */
export function checkText(
  ctx: CheckContext,
  v: unknown,
  path: string,
  max: number,
  opts: { required?: boolean; plainOnly?: boolean } = {},
): void {
  if (isAbsent(ctx, v, path, opts.required)) return;
  if (!isObj(v)) {
    ctx.problems.push(`${path} must be a text object`);
    return;
  }
  if (v.type !== "plain_text" && v.type !== "mrkdwn") {
    ctx.problems.push(`${path}.type must be plain_text or mrkdwn`);
  } else if (opts.plainOnly && v.type !== "plain_text") {
    ctx.problems.push(`${path} must be plain_text`);
  }
  if (v.type === "plain_text" && v.verbatim !== undefined)
    ctx.problems.push(`${path}: verbatim is only for mrkdwn`);
  if (v.type === "mrkdwn" && v.emoji !== undefined)
    ctx.problems.push(`${path}: emoji is only for plain_text`);
  checkString(ctx, v.text, `${path}.text`, max, { required: true, min: 1 });
  if (typeof v.text === "string") ctx.textTotal += v.text.length;
}

/** Block ids must be unique within the whole message or view. */
export function checkBlockId(ctx: CheckContext, v: unknown, path: string): void {
  checkString(ctx, v, `${path}.block_id`, LIMITS.id, { min: 1 });
  if (typeof v !== "string") return;
  if (ctx.blockIds.has(v)) ctx.problems.push(`${path}.block_id "${v.slice(0, 40)}" is used twice`);
  ctx.blockIds.add(v);
}

/** Action ids must be unique within their block (Slack's rule; rows of the same kind reuse ids). */
export function checkActionId(ctx: CheckContext, v: unknown, path: string, seen: Set<string>): void {
  checkString(ctx, v, `${path}.action_id`, LIMITS.id, { min: 1 });
  if (typeof v !== "string") return;
  if (seen.has(v)) ctx.problems.push(`${path}.action_id "${v.slice(0, 40)}" is used twice in one block`);
  seen.add(v);
}
