import { startWorker } from "../app/worker.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { onShutdown } from "./shutdown.ts";

/** `insights-digest worker`: delivers scheduled digests (Procfile `worker:`); SIGTERM drains, a second one exits. */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("worker");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest-worker" });
  const worker = await startWorker({ config, logger });
  return onShutdown(logger, () => worker.close());
}
