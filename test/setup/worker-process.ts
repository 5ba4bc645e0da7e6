import { type ChildProcess, spawn } from "node:child_process";

const ROOT = new URL("../../", import.meta.url);

/**
 * Starts a delivery worker in a node process of its own, run through tsx as the CLI runs it, so a
 * test can kill or freeze it. `start` is module code that calls `startWorker`; `root` (the repo's
 * URL), `o` (`options`, through JSON), `loadConfig` and `startWorker` are in its scope. The process
 * prints `ready` on stdout once `start` has finished.
 */
export function spawnWorkerProcess(start: string, options: Record<string, unknown>): ChildProcess {
  const code = `
    const root = process.env.CHILD_ROOT;
    const o = JSON.parse(process.env.CHILD_OPTIONS);
    const { loadConfig } = await import(root + "src/config.ts");
    const { startWorker } = await import(root + "src/app/worker.ts");
    ${start}
    process.stdout.write("ready\\n");`;
  return spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      CHILD_ROOT: ROOT.href,
      CHILD_OPTIONS: JSON.stringify(options),
      // A child's captured logs land beside the test process's (sandbox/log-dir.ts).
      ...(process.env.INSIGHTS_TEST_LOG_DIR
        ? { INSIGHTS_TEST_LOG_DIR: process.env.INSIGHTS_TEST_LOG_DIR }
        : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Resolves when the child prints `marker` on stdout. */
export function printed(child: ChildProcess, marker: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`child did not print "${marker}": ${out}${err}`)),
      timeoutMs,
    );
    child.stderr?.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes(marker)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before "${marker}": ${out}${err}`));
    });
  });
}

export const exited = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve({ code: child.exitCode, signal: child.signalCode })
      : child.once("exit", (code, signal) => resolve({ code, signal })),
  );
