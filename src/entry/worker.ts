import { Worker } from "bullmq";
import type { Redis } from "ioredis";
import { createAnalyticsClient } from "../analytics/client.ts";
import type { RetryPolicy } from "../analytics/retry.ts";
import { createChartRenderer } from "../chart/index.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { createDeliveryClaims } from "../jobs/claims.ts";
import { createDeliveryProcessor, type DeliveryResult } from "../jobs/deliver.ts";
import { type HealthServer, startHealthServer } from "../jobs/health.ts";
import { type DeliveryJobData, type DeliveryPolicy, type DeliveryQueue, KEEP_JOBS } from "../jobs/queue.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { createSlackApi } from "../jobs/slack-api.ts";
import type { Logger } from "../log.ts";
import { createDigestService } from "../services/digest.ts";
import { createInsightsSource } from "../services/insights-source.ts";
import { createApiKeyStore } from "../store/api-keys.ts";
import { createKeyScheme, type WorkspaceRef } from "../store/keys.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import { connectRedis } from "./redis.ts";

export interface WorkerOptions {
  config: Config;
  logger: Logger;
  /** A worker connection (maxRetriesPerRequest: null); otherwise one is opened from REDIS_URL and closed on stop. */
  redis?: Redis;
  /** Redis key prefix of the store (tests use one per file). */
  prefix?: string;
  /** Delivery queue name (tests use one per test). */
  queueName?: string;
  clock?: () => Date;
  /** Bot token per workspace. Default: the configured SLACK_BOT_TOKEN for every workspace. */
  tokenFor?: (ref: WorkspaceRef) => Promise<string>;
  policy?: Partial<DeliveryPolicy>;
  /** Claim lease and memory (see createDeliveryClaims). */
  claims?: { leaseMs?: number; doneTtlMs?: number };
  /** BullMQ lock and stall settings [30 s lock, 30 s stall check, 2 stalls]. */
  locks?: { lockDuration?: number; stalledInterval?: number; maxStalledCount?: number };
  /** The analytics client's own retries inside one attempt [its defaults]. */
  analyticsRetry?: Partial<RetryPolicy>;
  /** How long the shared insights cache remembers a failure [2 s]. */
  insightsErrorTtlMs?: number;
  /** Port of /healthz and /readyz; default config.healthPort; null = no health server. */
  healthPort?: number | null;
  limits?: Partial<SubscriptionLimits>;
}

export interface WorkerHandle {
  worker: Worker<DeliveryJobData, DeliveryResult, string>;
  queue: DeliveryQueue;
  subscriptions: SubscriptionService;
  /** Bound port of the health server, when started. */
  healthPort: number | undefined;
  /** Stops taking jobs, waits for those in flight, closes connections. */
  close(): Promise<void>;
}

function defaultTokenFor(config: Config): (ref: WorkspaceRef) => Promise<string> {
  const token = config.slack.botToken;
  if (!token)
    throw new AppError("config", "The worker needs SLACK_BOT_TOKEN, or a per-workspace token lookup in OAuth mode.", {
      details: { variables: ["SLACK_BOT_TOKEN"] },
    });
  return async () => token;
}

/**
 * The `worker` composition root: the delivery queue's worker with `config.workerConcurrency`, the
 * scheduler reconcile at start, and a health server. Everything it needs is built here and handed down.
 */
export async function startWorker(o: WorkerOptions): Promise<WorkerHandle> {
  const { config, logger } = o;
  if (!config.keyring) throw new AppError("config", "ENCRYPTION_KEYS is required to start the worker.");
  if (!o.redis && !config.redisUrl) throw new AppError("config", "REDIS_URL is required to start the worker.");
  const tokenFor = o.tokenFor ?? defaultTokenFor(config);
  const redis = o.redis ?? connectRedis(config.redisUrl as string, logger, "worker");
  const clock = o.clock ?? (() => new Date());
  const keys = createKeyScheme({ prefix: o.prefix });

  const analytics = createAnalyticsClient({
    graphqlUrl: config.analytics.graphqlUrl,
    appUrl: config.analytics.appUrl,
    timeoutMs: config.analytics.timeoutMs,
    retry: o.analyticsRetry,
    logger,
  });
  const apiKeys = createApiKeyStore({ redis, keyring: config.keyring, prefix: o.prefix });
  // A short error memory: a BullMQ retry after its backoff should ask the service again.
  const source = createInsightsSource({ redis, keys, client: analytics, logger, errorTtlMs: o.insightsErrorTtlMs ?? 2_000 });
  const digests = createDigestService({ apiKeys, source, platformUrl: config.platformUrl });

  const { queue, store, subscriptions } = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger,
    prefix: o.prefix,
    queueName: o.queueName,
    clock,
    policy: o.policy,
    limits: o.limits,
  });
  const charts = config.charts ? createChartRenderer() : undefined;
  const processor = createDeliveryProcessor({
    store,
    subscriptions,
    claims: createDeliveryClaims({ redis, keys, ...o.claims }),
    digests,
    slack: createSlackApi({ apiUrl: config.slack.apiUrl }),
    renderChart: charts ? (input) => charts.render(input) : undefined,
    tokenFor,
    rateLimit: (ms) => queue.rateLimit(ms),
    logger,
    clock,
  });

  await subscriptions.reconcile();
  const worker = new Worker<DeliveryJobData, DeliveryResult, string>(queue.name, processor, {
    connection: redis,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDuration: o.locks?.lockDuration ?? 30_000,
    stalledInterval: o.locks?.stalledInterval ?? 30_000,
    // A worker killed mid-delivery stalls its job once; the claim keeps a second run from double-posting.
    maxStalledCount: o.locks?.maxStalledCount ?? 2,
    ...KEEP_JOBS,
  });
  worker.on("error", (err) => logger.warn({ err: { message: err.message } }, "delivery worker error"));
  worker.on("failed", (job, err) =>
    logger.warn({ jobId: job?.id, sub: job?.data.sub, attempts: job?.attemptsMade, err: { message: err.message } }, "delivery job failed"),
  );

  let closing = false;
  const port = o.healthPort === undefined ? config.healthPort : o.healthPort;
  let health: HealthServer | undefined;
  if (port !== null) {
    health = await startHealthServer({
      port,
      ready: async () => !closing && worker.isRunning() && (await redis.ping()) === "PONG",
    });
  }
  logger.info({ queue: queue.name, concurrency: config.workerConcurrency, healthPort: health?.port }, "worker started");

  return {
    worker,
    queue,
    subscriptions,
    healthPort: health?.port,
    async close() {
      closing = true;
      await worker.close();
      await queue.close();
      await health?.close();
      if (!o.redis) await redis.quit().catch(() => redis.disconnect());
      logger.info("worker stopped");
    },
  };
}
