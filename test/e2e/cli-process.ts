import { type ChildProcess, spawn } from "node:child_process";
import { keepLogLines } from "../../sandbox/log-dir.ts";
import { productCli } from "../setup/product-build.ts";

/**
 * The product's CLI as a real child process (`insights-digest <command>`: the fresh build's, or the
 * bin script on the sources, test/setup/product-build.ts), with every line it writes on stdout and
 * stderr kept, for tests about the process itself: what it prints, that it exits, that it leaves
 * nothing running.
 */

export interface CliProcess {
  readonly child: ChildProcess;
  /** Every line so far, stdout and stderr, in arrival order. */
  readonly lines: string[];
  /** Resolves with the first line matching `re` (waits for it). */
  waitForLine(re: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** `cwd`: the directory the command starts in (where it looks for `.env`) [this process's]. */
export function startCli(
  command: string,
  env: Record<string, string>,
  args: string[] = [],
  o: { cwd?: string } = {},
): CliProcess {
  const product = productCli([command, ...args]);
  const child = spawn(process.execPath, product.argv, {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...product.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    cwd: o.cwd,
  });
  const lines: string[] = [];
  const waiters: { re: RegExp; resolve: (l: string) => void }[] = [];
  const take = (stream: NodeJS.ReadableStream) => {
    let rest = "";
    stream.on("data", (d: Buffer) => {
      const parts = (rest + d.toString("utf8")).split("\n");
      rest = parts.pop() ?? "";
      keepLogLines(parts, `cli-${command}`);
      for (const line of parts) {
        lines.push(line);
        for (const w of [...waiters]) {
          if (!w.re.test(line)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    });
    stream.on("end", () => {
      if (rest) lines.push(rest);
    });
  };
  take(child.stdout as NodeJS.ReadableStream);
  take(child.stderr as NodeJS.ReadableStream);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    lines,
    waitForLine(re, timeoutMs = 20_000) {
      const seen = lines.find((l) => re.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no line matching ${re} within ${timeoutMs} ms:\n${lines.join("\n")}`)),
          timeoutMs,
        );
        waiters.push({
          re,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
}
