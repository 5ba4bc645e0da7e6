import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { lowerPriority } from "../priority.ts";
import { onShutdown } from "./shutdown.ts";

/** `insights-digest worker`: delivers scheduled digests (Procfile `worker:`); SIGTERM drains, a second one exits. */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("worker");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest-worker" });
  // Before the app's modules load, so threads they start inherit the value from the main thread.
  const priority = lowerPriority(config.workerNice);
  if (priority.threads > 0)
    logger.info(priority, "worker threads run at a lower priority, so a web process on this host acks first");
  if (priority.refused > 0)
    logger.warn(
      priority,
      "could not lower the priority of every thread: digests may slow web acks on a shared host",
    );
  // The app's modules load once the configuration is known to be good, so a bad variable is
  // reported at once, not after a second or two of loading what it would have run.
  const { startWorker } = await import("../app/worker.ts");
  const worker = await startWorker({ config, logger });
  return onShutdown(logger, () => worker.close());
}
