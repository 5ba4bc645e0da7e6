import cluster from "node:cluster";
import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { onShutdown } from "./shutdown.ts";
import { runWebCluster, STOP_MESSAGE } from "./web-cluster.ts";

/**
 * `insights-digest web`: the Slack-facing HTTP process (Procfile `web:`). It acks and hands the work
 * off to the worker processes through a Redis stream. With WEB_CONCURRENCY=n it runs n of them
 * sharing the port (web-cluster.ts).
 */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("web");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest-web" });
  if (config.webConcurrency > 1 && cluster.isPrimary)
    return runWebCluster({ processes: config.webConcurrency, logger });
  // Loaded only here: a bad variable is reported before the app's modules load, and the cluster's
  // primary, which serves nothing, never loads them.
  const { startWeb } = await import("../app/web.ts");
  const web = await startWeb({ config, logger, host: "0.0.0.0", interactive: { mode: "queue" } });
  if (!cluster.isWorker) return onShutdown(logger, () => web.close());
  // One of the primary's web processes: it also stops when told to, and lets go of its channel to
  // the primary once stopped (an open channel would keep it running).
  const code = await onShutdown(
    logger,
    () => web.close(),
    (begin) => process.on("message", (m) => m === STOP_MESSAGE && begin("primary")),
  );
  process.disconnect?.();
  return code;
}
