import { createHash } from "node:crypto";
import { AppError } from "../errors.ts";
import { joinPart, MAX_LINE, recordLines } from "./backup-lines.ts";
import type { BackupRecord } from "./backup-record.ts";

/**
 * The backup file: JSON lines. A header naming the format and its version, one line per Redis key
 * (its name without the deployment's prefix, its type, its value as stored: sealed secrets stay
 * sealed; `x`, when the key expires, in ms since the epoch), and a trailer with the record count and
 * a SHA-256 of the record lines, so a file cut short or changed by hand is refused before anything is
 * written.
 *
 *   {"format":"insights-digest-backup","version":2,"createdAt":"…","prefix":"insights","app":"0.1.0"}
 *   {"k":"{w:T0123}:-:sub:ab12cd34","t":"hash","v":{"channel":"C0…","kind":"daily",…}}
 *   {"k":"{w:T0123}:-:alertmsg:ab12cd34","t":"string","v":"{…}","x":1798761600000}
 *   {"end":true,"records":2,"sha256":"…"}
 *
 * Version 2 added string records and `x`; version 1 files read as before.
 */

export const BACKUP_FORMAT = "insights-digest-backup";
/** The newest format this version writes and reads; a restore refuses anything newer. */
export const BACKUP_VERSION = 2;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  /** The key prefix the keys were read under (a restore may write them under another). */
  prefix: string;
  /** The app version that wrote the file. */
  app: string;
}

export type { BackupRecord } from "./backup-record.ts";

const bad = (message: string) => new AppError("bad_backup", `Not a usable backup: ${message}.`);

/**
 * Writes a backup line by line, keeping the trailer's count (of lines) and checksum; a record too
 * large for one line comes as several (backup-lines.ts).
 */
export function backupWriter(header: Omit<BackupHeader, "format" | "version">) {
  const hash = createHash("sha256");
  let records = 0;
  return {
    header: () => JSON.stringify({ format: BACKUP_FORMAT, version: BACKUP_VERSION, ...header }),
    record(r: BackupRecord): string[] {
      const lines = recordLines(r);
      for (const line of lines) hash.update(line).update("\n");
      records += lines.length;
      return lines;
    },
    trailer: () => JSON.stringify({ end: true, records, sha256: hash.digest("hex") }),
  };
}

const isStringMap = (v: unknown): v is Record<string, string> =>
  typeof v === "object" &&
  v !== null &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === "string");

function parseLine(line: string, n: number): unknown {
  if (line.length > MAX_LINE) throw bad(`line ${n} is longer than ${MAX_LINE} characters`);
  try {
    return JSON.parse(line);
  } catch {
    throw bad(`line ${n} is not JSON`);
  }
}

function header(value: unknown): BackupHeader {
  const h = value as Partial<BackupHeader> | null;
  if (!h || typeof h !== "object" || h.format !== BACKUP_FORMAT)
    throw bad(`the first line does not name the format "${BACKUP_FORMAT}"`);
  if (!Number.isInteger(h.version) || (h.version as number) < 1) throw bad("the header has no valid version");
  if ((h.version as number) > BACKUP_VERSION)
    throw new AppError(
      "backup_too_new",
      `This backup is format ${h.version}, written by a newer insights-digest (${String(h.app).slice(0, 20)}); this one reads format ${BACKUP_VERSION} and older. Restore it with that version or a newer one.`,
    );
  if (typeof h.prefix !== "string" || typeof h.createdAt !== "string") throw bad("the header is incomplete");
  return h as BackupHeader;
}

function record(value: unknown, n: number): BackupRecord {
  const r = value as Partial<BackupRecord> | null;
  if (!r || typeof r !== "object" || typeof r.k !== "string" || r.k.length === 0 || r.k.length > 512)
    throw bad(`line ${n} has no key`);
  if (r.x !== undefined && !(Number.isSafeInteger(r.x) && r.x > 0))
    throw bad(`line ${n} has no valid expiry`);
  if (r.t === "hash" && isStringMap(r.v) && Object.keys(r.v).length > 0) return r as BackupRecord;
  if (r.t === "set" && Array.isArray(r.v) && r.v.length > 0 && r.v.every((x) => typeof x === "string"))
    return r as BackupRecord;
  if (r.t === "string" && typeof r.v === "string") return r as BackupRecord;
  throw bad(`line ${n} holds no hash, set or string value`);
}

/**
 * Reads a whole backup, with LF or CRLF line ends. Throws `backup_too_new` for a newer format,
 * `bad_backup` for anything else that is wrong (not JSON, no header, no trailer, a count or checksum
 * that does not match).
 */
export function parseBackup(text: string): { header: BackupHeader; records: BackupRecord[] } {
  // Lines end in LF or CRLF (a file that passed through a Windows editor or a text-mode copy), and a
  // byte order mark may lead. The checksum covers the lines without their ends, so it holds either way,
  // and any change inside a line is still caught.
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  if (lines.length === 0) throw bad("the input is empty");
  const head = header(parseLine(lines[0] as string, 1));
  const last = parseLine(lines[lines.length - 1] as string, lines.length) as {
    end?: unknown;
    records?: unknown;
    sha256?: unknown;
  } | null;
  if (lines.length < 2 || !last || last.end !== true)
    throw bad("it has no trailer line (the file was cut short?)");
  const body = lines.slice(1, -1);
  const hash = createHash("sha256");
  for (const line of body) hash.update(line).update("\n");
  if (last.records !== body.length || last.sha256 !== hash.digest("hex"))
    throw bad(
      "its records do not match the trailer's count and checksum (the file was changed or cut short)",
    );
  const records: BackupRecord[] = [];
  for (const [i, line] of body.entries()) {
    const value = parseLine(line, i + 2);
    const r = record(value, i + 2);
    const before = records[records.length - 1];
    if ((value as { c?: unknown }).c !== true) records.push(r);
    else if (before && before.k === r.k && before.t === r.t && r.x === undefined) joinPart(before, r);
    else throw bad(`line ${i + 2} continues no record of its key before it`);
  }
  return { header: head, records };
}
