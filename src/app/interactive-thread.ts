import { setPriority } from "node:os";
import { clockOf } from "../clock.ts";
import type { Config } from "../config.ts";
import { serveThreadJobs, threadBoot, threadLogDestination } from "../interactive/thread-port.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { createLogger } from "../log.ts";
import { createMetrics } from "../metrics.ts";
import { createTracing } from "../tracing.ts";
import { createInteractiveRunner } from "./interactive.ts";
import type { ThreadData } from "./interactive-pool.ts";
import { connectRedis } from "./redis.ts";

/**
 * One digest thread of a single-process install (see interactive-pool.ts): its own Redis
 * connection and services, its log lines handed to the main thread, jobs from the pool.
 */
const data = threadBoot().data as ThreadData;
// A nice value is per thread on Linux: digest threads give way to the event loop that acks Slack.
try {
  setPriority(10);
} catch {
  // Not allowed here: the threads then share the cores evenly with the event loop.
}
// The keyring crossed the thread boundary as plain bytes.
const config: Config = {
  ...data.config,
  keyring: data.config.keyring?.map((k) => ({ id: k.id, key: Buffer.from(k.key) })),
};
const logger = createLogger({ level: data.logLevel, destination: threadLogDestination() });
const redis = connectRedis(data.redisUrl, logger, "client", config.redisCommandTimeoutMs);
const runtime = createSubscriptionRuntime({
  redis,
  queuePrefix: config.queuePrefix,
  logger,
  prefix: data.prefix,
  clock: clockOf(config),
  ...data.subscriptions,
});
const metrics = createMetrics({ defaultMetrics: false });
// A thread has a module graph of its own: it exports its spans itself, into the trace its request's ack started.
const tracing = await createTracing({ endpoint: config.otlpEndpoint, serviceName: "insights-digest-web" });
const runner = createInteractiveRunner({
  tracing,
  config,
  logger,
  redis,
  metrics,
  prefix: data.prefix,
  subscriptions: runtime.subscriptions,
  claimLeaseMs: data.claimLeaseMs,
});
serveThreadJobs({
  run: runner.run,
  metrics: () => metrics.registry.getMetricsAsJSON(),
  async close() {
    await runner.close();
    await runtime.close();
    await redis.quit().catch(() => redis.disconnect());
    await tracing.shutdown().catch(() => undefined);
  },
});
