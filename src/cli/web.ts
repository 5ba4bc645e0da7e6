import { startWeb } from "../app/web.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { onShutdown } from "./shutdown.ts";

/**
 * `insights-digest web`: the Slack-facing HTTP process (Procfile `web:`). It acks, checks access and
 * hands digest work to the worker processes through the interactive queue.
 */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("web");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest-web" });
  const web = await startWeb({ config, logger, host: "0.0.0.0", interactive: { mode: "queue" } });
  return onShutdown(logger, () => web.close());
}
