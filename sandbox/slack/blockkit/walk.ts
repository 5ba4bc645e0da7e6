/**
 * What the stand-in's Block Kit check keeps while it walks a payload, and the checks every part
 * shares. Problems read like Slack's `invalid_blocks` errors: a sentence and the JSON pointer of the
 * offending field, e.g. `must be less than 151 characters [json-pointer:/blocks/0/text/text]`.
 */

/** Where blocks go; `unfurl` is a link preview's attachment (chat.unfurl). */
export type Surface = "message" | "modal" | "home" | "unfurl";
export type Obj = Record<string, unknown>;

export interface Walk {
  surface: Surface;
  problems: string[];
  blockIds: Set<string>;
  /** Characters of every markdown block so far (Slack caps their sum per payload). */
  markdownTotal: number;
  /** Whether a `slack_file` reference names a file Slack can show right now. */
  fileReady: (ref: Obj) => boolean;
  /** Blocks of each type so far (Slack takes one table and two charts per message). */
  typeCounts: Map<string, number>;
  /** Block types a test told the stand-in to refuse, as a client or workspace without them would. */
  refused: ReadonlySet<string>;
}

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function fail(w: Walk, path: string, message: string): void {
  w.problems.push(`${message} [json-pointer:${path}]`);
}

/** Slack refuses properties a block, element or object does not define. */
export function onlyProps(w: Walk, v: Obj, path: string, allowed: readonly string[]): void {
  for (const key of Object.keys(v))
    if (!allowed.includes(key)) fail(w, path, `invalid additional property: ${key.slice(0, 40)}`);
}

/** A field the object must carry. */
export function required(w: Walk, v: Obj, key: string, path: string): boolean {
  if (v[key] !== undefined) return true;
  fail(w, path, `missing required field: ${key}`);
  return false;
}

/** A string of at most `max` (and at least `min`) characters, when present. */
export function checkStr(w: Walk, v: unknown, path: string, max: number, min = 0): void {
  if (v === undefined) return;
  if (typeof v !== "string") {
    fail(w, path, "must provide a string");
    return;
  }
  if (v.length > max) fail(w, path, `must be less than ${max + 1} characters`);
  if (v.length < min) fail(w, path, `must be more than ${min - 1} characters`);
}

/** An array of at most `max` (and at least `min`) entries, when present; its entries or nothing. */
export function checkList(w: Walk, v: unknown, path: string, max: number, min = 1): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    fail(w, path, "must provide an array");
    return [];
  }
  if (v.length > max) fail(w, path, `no more than ${max} items allowed`);
  if (v.length < min) fail(w, path, `must provide at least ${min} items`);
  return v;
}

/** A text object: plain_text (with `emoji`) or mrkdwn (with `verbatim`), 1 to `max` characters. */
export function checkText(w: Walk, v: unknown, path: string, max: number, plainOnly = false): void {
  if (v === undefined) return;
  if (!isObj(v)) {
    fail(w, path, "must provide an object");
    return;
  }
  if (v.type === "plain_text") onlyProps(w, v, path, ["type", "text", "emoji"]);
  else if (v.type === "mrkdwn" && !plainOnly) onlyProps(w, v, path, ["type", "text", "verbatim"]);
  else fail(w, `${path}/type`, plainOnly ? "must be plain_text" : "must be plain_text or mrkdwn");
  if (required(w, v, "text", path)) checkStr(w, v.text, `${path}/text`, max, 1);
}

/** block_id: at most 255 characters, unique within the message or view. */
export function checkBlockId(w: Walk, v: unknown, path: string, max: number): void {
  checkStr(w, v, path, max, 1);
  if (typeof v !== "string") return;
  if (w.blockIds.has(v)) fail(w, path, "duplicate block_id");
  w.blockIds.add(v);
}
