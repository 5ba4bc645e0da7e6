import { AppError } from "../errors.ts";
import type { BackupRecord } from "./backup-record.ts";

/**
 * A backup's lines stay under a bound the reader can hold, whatever Redis holds: one time slot's set
 * of workspaces alone passes a million characters near 38,000 workspaces. A record that does not fit
 * on one line is written as a first line and continuation lines (`"c":true`) of the same key and
 * type, each holding more of it: more members of a set, more fields of a hash, more characters of a
 * string or of one hash field's value (appended to what the lines before gave that field).
 */

/** The longest line a backup holds (characters, as JavaScript counts them). */
export const MAX_LINE = 1_000_000;

const tooLarge = (what: string) =>
  new AppError(
    "backup_too_large",
    `Cannot back up ${what}: it does not fit on a line of ${MAX_LINE} characters.`,
  );

/** How many characters a string takes in JSON, quotes included. */
function jsonLength(s: string): number {
  return JSON.stringify(s).length;
}

/** `s` cut into pieces each at most `room` characters in JSON, never inside a character. */
export function stringChunks(s: string, room: number): string[] {
  if (jsonLength(s) <= room) return [s];
  const chunks: string[] = [];
  let start = 0;
  let used = 2;
  for (let i = 0; i < s.length; ) {
    const code = s.codePointAt(i) as number;
    const n = code > 0xffff ? 2 : 1;
    const plain = code >= 0x20 && code < 0x7f && code !== 0x22 && code !== 0x5c;
    const width = plain ? 1 : JSON.stringify(s.slice(i, i + n)).length - 2;
    if (used + width > room && i > start) {
      chunks.push(s.slice(start, i));
      start = i;
      used = 2;
    }
    used += width;
    i += n;
  }
  chunks.push(s.slice(start));
  return chunks;
}

function setParts(key: string, members: readonly string[], room: number): string[][] {
  const parts: string[][] = [];
  let part: string[] = [];
  let used = 2;
  for (const m of members) {
    const width = jsonLength(m) + (part.length > 0 ? 1 : 0);
    if (used + width > room && part.length > 0) {
      parts.push(part);
      part = [];
      used = 2;
    }
    if (used + jsonLength(m) > room) throw tooLarge(`a member of ${key}`);
    used += jsonLength(m) + (part.length > 0 ? 1 : 0);
    part.push(m);
  }
  parts.push(part);
  return parts;
}

function hashParts(key: string, fields: Record<string, string>, room: number): Record<string, string>[] {
  const parts: Record<string, string>[] = [];
  let part: Record<string, string> = {};
  let used = 2;
  const flush = () => {
    if (used > 2) parts.push(part);
    part = {};
    used = 2;
  };
  for (const [field, value] of Object.entries(fields)) {
    const name = jsonLength(field) + 1;
    const width = name + jsonLength(value);
    if (used + width + (used > 2 ? 1 : 0) > room) flush();
    if (2 + width <= room) {
      used += width + (used > 2 ? 1 : 0);
      part[field] = value;
      continue;
    }
    // One value larger than a line: its pieces on lines of their own, appended in order.
    if (2 + name + 8 > room) throw tooLarge(`a field of ${key}`);
    for (const chunk of stringChunks(value, room - 2 - name)) parts.push({ [field]: chunk });
  }
  flush();
  return parts;
}

/** A record as lines of at most `max` characters (one line when it fits). */
export function recordLines(r: BackupRecord, max = MAX_LINE): string[] {
  const whole = JSON.stringify(r);
  if (whole.length <= max) return [whole];
  // What a line takes besides its value: the key, the type, the expiry or the continuation mark.
  const frame = JSON.stringify({ k: r.k, t: r.t, v: 0, x: r.x, c: true }).length - 1;
  const room = max - frame;
  if (room < 16) throw tooLarge(r.k);
  const values: unknown[] =
    r.t === "set"
      ? setParts(r.k, r.v, room)
      : r.t === "hash"
        ? hashParts(r.k, r.v, room)
        : stringChunks(r.v, room);
  return values.map((v, i) =>
    JSON.stringify(
      i === 0
        ? { k: r.k, t: r.t, v, ...(r.x === undefined ? {} : { x: r.x }) }
        : { k: r.k, t: r.t, v, c: true },
    ),
  );
}

/** Adds a continuation line's part to the record it continues (same key and type, checked by the caller). */
export function joinPart(into: BackupRecord, part: BackupRecord): void {
  if (into.t === "set" && part.t === "set") for (const m of part.v) into.v.push(m);
  else if (into.t === "hash" && part.t === "hash")
    for (const [field, value] of Object.entries(part.v)) {
      const before = Object.hasOwn(into.v, field) ? into.v[field] : "";
      // Defined, not assigned: a field may be named like an Object property ("__proto__").
      Object.defineProperty(into.v, field, {
        value: before + value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  else if (into.t === "string" && part.t === "string") into.v += part.v;
}
