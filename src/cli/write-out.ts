import { writeFileSync } from "node:fs";
import { AppError } from "../errors.ts";

/** What a failed write means, in words; other codes are shown as they are. */
const WRITE_FAILURES: Record<string, string> = {
  ENOENT: "its folder does not exist",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "that is a folder",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only",
  ENOSPC: "the disk is full",
};

/** Writes a file the CLI was asked for (`what`: "the chart", "the CSV"), or says in words why it cannot. */
export function writeOut(path: string, bytes: Uint8Array | string, what: string): void {
  try {
    writeFileSync(path, bytes);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "";
    const why = WRITE_FAILURES[code] ?? (code || (err as Error).message);
    throw new AppError("file_unwritable", `Cannot write ${what} to ${path}: ${why}.`, { cause: err });
  }
}
