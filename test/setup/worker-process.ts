import { type ChildProcess, spawn } from "node:child_process";
import { freshBuild, productModule } from "./product-build.ts";

const ROOT = new URL("../../", import.meta.url);

/**
 * Starts a delivery worker in a node process of its own, so a test can kill or freeze it: the
 * fresh build's modules when there is one, else the TypeScript sources through tsx, as the CLI runs
 * them (test/setup/product-build.ts). `start` is module code that calls `startWorker`; in its scope
 * are `root` (the repo's URL), `o` (`options`, through JSON), `loadConfig`, `startWorker`,
 * `createLogger` and `keptLogger(level)`, a logger whose lines are kept as the sandbox keeps an app's
 * (sandbox/log-dir.ts). The process prints `ready` on stdout once `start` has finished.
 */
export function spawnWorkerProcess(start: string, options: Record<string, unknown>): ChildProcess {
  const built = freshBuild() !== undefined;
  // The sandbox's log keeper is TypeScript: a child running the build loads tsx only after the
  // product, for that one small module.
  const code = `
    const root = process.env.CHILD_ROOT;
    const o = JSON.parse(process.env.CHILD_OPTIONS);
    const { loadConfig } = await import(${JSON.stringify(productModule("config"))});
    const { startWorker } = await import(${JSON.stringify(productModule("app/worker"))});
    const { createLogger } = await import(${JSON.stringify(productModule("log"))});
    ${built ? `(await import("tsx/esm/api")).register();` : ""}
    const { keepingDestination } = await import(root + "sandbox/log-dir.ts");
    const keptLogger = (level) => createLogger({ level, destination: keepingDestination() });
    ${start}
    process.stdout.write("ready\\n");`;
  return spawn(process.execPath, [...(built ? [] : ["--import", "tsx"]), "--input-type=module", "-e", code], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      CHILD_ROOT: ROOT.href,
      CHILD_OPTIONS: JSON.stringify(options),
      // A child's captured logs land beside the test process's (sandbox/log-dir.ts), and it shares the
      // run's compile cache (test/setup/redis.ts).
      ...inherited("INSIGHTS_TEST_LOG_DIR", "NODE_COMPILE_CACHE"),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** The variables among `names` that this process has set, to pass on to a child. */
function inherited(...names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((n) => (process.env[n] ? [[n, process.env[n]]] : [])));
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
