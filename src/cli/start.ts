import { loadConfig } from "../config.ts";
import { createLogger } from "../log.ts";
import { onShutdown } from "./shutdown.ts";

/**
 * `insights-digest start`: the web process and the delivery worker in one process, for small
 * installs. Digests people wait for are computed by INTERACTIVE_THREADS worker threads, so the
 * event loop that acks Slack's requests never computes one. Two Redis connections to the one REDIS_URL: request paths fail fast, while the worker's
 * blocking commands need `maxRetriesPerRequest: null`. The web's /healthz and /readyz serve both, so
 * the worker starts no probe server of its own. SIGTERM stops taking requests and jobs, lets jobs in
 * flight finish, then closes both connections; a second SIGTERM exits at once.
 */
export async function run(_args: string[]): Promise<number> {
  const config = loadConfig("start");
  const logger = createLogger({ level: config.logLevel, name: "insights-digest" });
  // The app's modules load once the configuration is known to be good (a bad variable is reported at once).
  const [{ connectRedis }, { startWeb }, { startWorker }] = await Promise.all([
    import("../app/redis.ts"),
    import("../app/web.ts"),
    import("../app/worker.ts"),
  ]);
  const url = config.redisUrl as string;
  const redis = connectRedis(url, logger, "client", config.redisCommandTimeoutMs);
  const workerRedis = connectRedis(url, logger, "worker");
  const quit = async () => {
    await Promise.all([redis, workerRedis].map((r) => r.quit().catch(() => r.disconnect())));
  };
  let web: Awaited<ReturnType<typeof startWeb>> | undefined;
  try {
    web = await startWeb({ config, logger, redis, host: "0.0.0.0", interactive: { mode: "threads" } });
    const worker = await startWorker({
      config,
      logger,
      redis: workerRedis,
      healthPort: null,
      interactive: false,
    });
    const running = web;
    return await onShutdown(logger, async () => {
      // Both at once: the web stops accepting while the worker finishes what it holds.
      const results = await Promise.allSettled([running.close(), worker.close()]);
      await quit();
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    });
  } catch (err) {
    await web?.close().catch(() => undefined);
    await quit();
    throw err;
  }
}
