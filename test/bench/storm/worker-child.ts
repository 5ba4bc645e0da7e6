import type { WorkerHandle, WorkerOptions } from "../../../src/app/worker.ts";
import type { WorkspaceRef } from "../../../src/store/keys.ts";
import { productModule } from "../../setup/product-build.ts";
import { serveRpc } from "../child.ts";

/**
 * A delivery worker in its own process, as `insights-digest worker` runs it, so it can be
 * SIGKILLed and restarted and its RSS read. It runs the compiled product (dist/) when the build is
 * fresh, as a production install does; else the sources (through tsx). Configured from the environment (loadConfig) plus the
 * options the bench passes; tokens per workspace follow the stand-in's `xoxb-bench-<team>` seeds.
 */

export type BenchWorkerOptions = Pick<
  WorkerOptions,
  | "prefix"
  | "queueName"
  | "policy"
  | "claims"
  | "locks"
  | "pacing"
  | "analyticsRetry"
  | "insightsErrorTtlMs"
  | "insightsLockMs"
>;

export const benchToken = (ref: WorkspaceRef) => `xoxb-bench-${ref.teamId ?? ref.enterpriseId ?? "none"}`;

let handle: WorkerHandle | undefined;

if (process.send) {
  serveRpc({
    async start(o: BenchWorkerOptions) {
      const started = performance.now();
      const { loadConfig } = (await import(
        productModule("config")
      )) as typeof import("../../../src/config.ts");
      const config = loadConfig("worker");
      // BENCH_WORKER_NICE=on: the worker's threads at WORKER_NICE as `insights-digest worker` sets them
      // (before the app's modules load, so the threads they start inherit it), for runs that share the
      // machine with a web process.
      if (process.env.BENCH_WORKER_NICE === "on") {
        const { lowerPriority } = (await import(
          productModule("priority")
        )) as typeof import("../../../src/priority.ts");
        lowerPriority(config.workerNice);
      }
      const { startWorker } = (await import(
        productModule("app/worker")
      )) as typeof import("../../../src/app/worker.ts");
      const { silentLogger, createLogger } = (await import(
        productModule("log")
      )) as typeof import("../../../src/log.ts");
      // BENCH_WORKER_LOG=<level> shows the worker's log lines (for finding what a run waits on); silent otherwise.
      const level = process.env.BENCH_WORKER_LOG;
      handle = await startWorker({
        config,
        logger: level ? createLogger({ level }) : silentLogger(),
        tokenFor: async (ref) => benchToken(ref),
        healthPort: null,
        ...o,
      });
      return { startMs: Math.round(performance.now() - started) };
    },
    rss: () => process.memoryUsage().rss,
    async close() {
      await handle?.close();
      handle = undefined;
    },
  });
}
