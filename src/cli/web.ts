import { startWeb } from "../app/web.ts";
import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { onShutdown } from "./shutdown.ts";

/** `insights-digest web`: the Slack-facing HTTP process (Procfile `web:`). */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("web");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest-web" });
  const web = await startWeb({ config, logger, host: "0.0.0.0" });
  return onShutdown(logger, () => web.close());
}
