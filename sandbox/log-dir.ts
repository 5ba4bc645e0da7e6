import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";

/**
 * When INSIGHTS_TEST_LOG_DIR is set, every log line the sandbox captures (the app's in a stack, the
 * CLI processes a test runs) is also appended to a file there, one per process, so a whole test run's
 * logs can be searched afterwards, e.g. for a token that must never appear.
 */
const dir = process.env.INSIGHTS_TEST_LOG_DIR;
if (dir) mkdirSync(dir, { recursive: true });

/** Appends lines to this process's file under `INSIGHTS_TEST_LOG_DIR`; a no-op when it is unset. */
export function keepLogLines(lines: string[], source = "app"): void {
  if (!dir || lines.length === 0) return;
  appendFileSync(join(dir, `${source}-${process.pid}.log`), `${lines.join("\n")}\n`);
}

/**
 * A logger's destination that keeps every line it is written: in `lines` when given, and under
 * `INSIGHTS_TEST_LOG_DIR` as `keepLogLines` keeps them.
 */
export function keepingDestination(lines?: string[]): Writable {
  return new Writable({
    write(chunk, _enc, cb) {
      const got = String(chunk).split("\n").filter(Boolean);
      lines?.push(...got);
      keepLogLines(got);
      cb();
    },
  });
}
