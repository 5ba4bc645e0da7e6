import { type ChildProcess, spawn } from "node:child_process";

/** One JSON log line of the product (pino's fields: `level` by its label, `msg`, and the line's own). */
export type LogLine = Record<string, unknown> & { msg?: string; level?: string };

/**
 * A `web` or `worker` command of some build of the product, running as a process of its own, as a
 * Procfile line runs it. Its log lines (JSON on stdout, LOG_LEVEL info) are kept, parsed.
 */
export interface ProductProcess {
  /** Which build and command, for messages (`0.0.3 worker`). */
  name: string;
  child: ChildProcess;
  lines: LogLine[];
  /** What it wrote on stderr (a crash's stack). */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The first line, logged already or to come, that `match` accepts; rejects past `timeoutMs` or on exit. */
  line(match: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `node <argv…>` in `cwd` with exactly `env` (and PATH): the product's CLI, of this
 * checkout or of a release.
 */
export function startProduct(
  name: string,
  argv: string[],
  cwd: string,
  env: Record<string, string>,
): ProductProcess {
  const child = spawn(process.execPath, argv, {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let err = "";
  let rest = "";
  child.stdout?.on("data", (d: Buffer) => {
    rest += d.toString();
    const parts = rest.split("\n");
    rest = parts.pop() ?? "";
    for (const part of parts) {
      if (!part.startsWith("{")) continue;
      try {
        lines.push(JSON.parse(part) as LogLine);
      } catch {
        lines.push({ msg: part });
      }
    }
    for (const w of [...waiters]) w();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
    for (const w of [...waiters]) w();
  });
  const tail = () =>
    `${lines
      .slice(-8)
      .map((l) => JSON.stringify(l))
      .join("\n")}\n${err.slice(-2_000)}`;
  return {
    name,
    child,
    lines,
    stderr: () => err,
    exited,
    line(match, timeoutMs = 60_000) {
      return new Promise<LogLine>((resolve, reject) => {
        let timer: NodeJS.Timeout | undefined;
        const check = () => {
          const found = lines.find(match);
          if (found || gone) {
            waiters.delete(check);
            clearTimeout(timer);
            if (found) resolve(found);
            else reject(new Error(`${name} exited before the line awaited:\n${tail()}`));
          }
        };
        timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${name}: no such line within ${timeoutMs} ms:\n${tail()}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async stop(signal = "SIGTERM") {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}
