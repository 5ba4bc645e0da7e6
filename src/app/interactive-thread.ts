import { getPriority, setPriority } from "node:os";
import { clockOf } from "../clock.ts";
import type { Config } from "../config.ts";
import { startStreamConsumer } from "../interactive/consumer.ts";
import { retryOnRedis } from "../interactive/retry-policy.ts";
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
// A nice value is per thread on Linux: under `start` digest threads give way to the event loop that
// acks Slack; in a worker process they keep its WORKER_NICE while its deliveries' thread goes lower.
// A thread started after that (a replacement) inherits the deliveries' value and can take its own back
// only where the process may lower a nice value.
const nice = data.nice ?? 10;
let niceRefused = false;
try {
  const now = getPriority();
  if (now < nice) setPriority(nice);
  else if (now > nice && data.nice !== undefined) setPriority(nice);
} catch {
  niceRefused = true;
}
// The keyring crossed the thread boundary as plain bytes.
const config: Config = {
  ...data.config,
  keyring: data.config.keyring?.map((k) => ({ id: k.id, key: Buffer.from(k.key) })),
};
const logger = createLogger({ level: data.logLevel, destination: threadLogDestination() });
if (niceRefused)
  logger.warn(
    { nice, now: getPriority() },
    "a digest thread could not set its priority; it runs at the one it has",
  );
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
const tracing = await createTracing({
  endpoint: config.otlpEndpoint,
  serviceName: data.serviceName ?? "insights-digest-web",
});
const runner = createInteractiveRunner({
  tracing,
  config,
  logger,
  redis,
  metrics,
  prefix: data.prefix,
  subscriptions: runtime.subscriptions,
  claimLeaseMs: data.claimLeaseMs,
  insightsLockMs: data.insightsLockMs,
});
// A worker process's thread reads the hand-off stream itself: a request is read, run and acknowledged
// here, whatever the process's deliveries keep its main thread doing. Its commands go through a
// connection that waits for Redis rather than giving up on a command (as the main thread's worker
// connection does: an acknowledgement given up on runs the request again elsewhere); its blocking
// reads through a copy of that one.
const streamRedis = data.stream ? connectRedis(data.redisUrl, logger, "worker") : undefined;
const consumer =
  data.stream && streamRedis
    ? startStreamConsumer({
        connection: streamRedis,
        prefix: config.queuePrefix,
        name: data.stream.name,
        concurrency: config.interactive.concurrency,
        leaseMs: data.stream.leaseMs,
        logger,
        run: runner.run,
        retryInMs: (err, job) => retryOnRedis(err, job),
      })
    : undefined;
serveThreadJobs({
  run: runner.run,
  metrics: () => metrics.registry.getMetricsAsJSON(),
  async close() {
    // Reading stops first; what it read runs to its end and is acknowledged.
    await consumer?.close();
    await streamRedis?.quit().catch(() => streamRedis.disconnect());
    await runner.close();
    await runtime.close();
    await redis.quit().catch(() => redis.disconnect());
    await tracing.shutdown().catch(() => undefined);
  },
});
