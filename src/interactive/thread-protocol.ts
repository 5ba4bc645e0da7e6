import type { InteractiveJob, InteractiveOutcome } from "./types.ts";

/** Messages between the pool (pool.ts) and its threads (thread-port.ts). */
export type ToThread =
  | { type: "job"; job: InteractiveJob }
  | { type: "metrics"; seq: number }
  | { type: "close" };

export type FromThread =
  | { type: "ready" }
  /** `failed`: the run threw (its message; the outcome carries its code), so it did not end. */
  | { type: "done"; outcome: InteractiveOutcome; failed?: string }
  | { type: "log"; line: string }
  /** The thread's Prometheus registry as `getMetricsAsJSON()` gives it. */
  | { type: "metrics"; seq: number; metrics: unknown[] }
  | { type: "closed" };

/** What every thread receives as workerData: its module, how to load it, and the module's own data. */
export interface ThreadBoot {
  /** file: URL of the thread's module. */
  entry: string;
  /** file: URL of tsx's loader API when the module is TypeScript source (development, tests). */
  tsx?: string;
  concurrency: number;
  data: unknown;
}

/**
 * The first code a thread runs: loads tsx when the module is TypeScript, then the module. A thread
 * that cannot load its module exits with code 1 (the pool logs it and starts another later).
 */
export const THREAD_BOOTSTRAP = `
(async () => {
  // Read as a script or as a module (a process started with --input-type=module passes that flag
  // on to its threads): import() is in both, require in scripts only.
  const { workerData } = await import("node:worker_threads");
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})().catch((err) => {
  console.error("interactive thread could not start:", err && err.stack ? err.stack : err);
  process.exit(1);
});`;
