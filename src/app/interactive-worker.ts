import { startStreamConsumer } from "../interactive/consumer.ts";
import { drainLegacyQueue } from "../interactive/legacy.ts";
import { retryOnRedis } from "../interactive/retry-policy.ts";
import type { InteractiveJob, InteractiveOutcome } from "../interactive/types.ts";
import type { GiveWay } from "../jobs/give-way.ts";
import type { Metrics } from "../metrics.ts";
import { fromLegacyJob } from "../slack/frame/index.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { createInteractiveRunner, type InteractiveRunnerOptions } from "./interactive.ts";
import { startInteractivePool, type ThreadData } from "./interactive-pool.ts";
import { autoPipelined } from "./redis.ts";

/** Options of the worker process's interactive part (WorkerOptions.interactive). */
export interface InteractiveWorkerOptions {
  /** Hand-off stream name [interactive]; tests use one per stack. */
  queueName?: string;
  /** How long a dead worker's request waits before another takes it over [10 s] (see consumer.ts). */
  streamLeaseMs?: number;
  /** Lease of a request's claim [6 s]. */
  claimLeaseMs?: number;
  /** How long a run may hold an insights query's shared-fetch lock [10 s]. */
  insightsLockMs?: number;
  /**
   * A connection without a command deadline, when `redis` (the app's) has one: the stream's blocking
   * reads and the legacy drain's BullMQ worker use it; every other command keeps the deadline.
   */
  connection?: RedisClient;
  /** Where this process's deliveries learn that a request runs, so they give way to it [none]. */
  giveWay?: GiveWay;
  /**
   * Threads that compute the requests, each with its own event loop and Redis connection
   * [INTERACTIVE_WORKER_THREADS for a worker that opened its own connection; 0, on this event loop,
   * for one handed a connection, which a thread cannot share].
   */
  threads?: number;
  /** The module each thread runs [interactive-thread beside this file]. */
  threadModule?: URL;
}

/** What the threads need besides the runner's options (plain data: copied into each thread). */
export interface InteractiveThreadsData {
  redisUrl: string;
  /** The worker's nice value: the threads keep it. */
  nice: number;
  subscriptions: ThreadData["subscriptions"];
}

/**
 * Computes what people wait for, next to the delivery worker: the requests the web processes hand
 * off through their stream, `INTERACTIVE_CONCURRENCY` at once, so they never stand behind scheduled
 * deliveries.
 */
export function startInteractiveWorker(
  o: InteractiveRunnerOptions &
    InteractiveWorkerOptions & { metrics: Metrics; threadsData?: InteractiveThreadsData },
) {
  // The requests' own commands (claims, caches, acknowledgements) on a connection that sends what
  // concurrent requests ask in one tick as one write: on a busy worker their replies arrive together
  // and their next commands go out together, instead of a socket write each.
  const redis = autoPipelined(o.redis, o.logger, "interactive");
  // In threads, a request never waits behind a delivery's steps (rendering, parsing, a chart) on one
  // event loop: each thread reads the stream itself, runs what it read and acknowledges it, so a slot's
  // deliveries on this loop delay neither the reading nor the answer; the cores are shared by the
  // scheduler instead. (Read here and handed over, requests waited seconds for this loop at a slot's
  // fire, in the stream and again for their results to come back.)
  const pool =
    (o.threads ?? 0) > 0 && o.threadsData
      ? startInteractivePool({
          config: o.config,
          redisUrl: o.threadsData.redisUrl,
          logger: o.logger,
          prefix: o.prefix,
          subscriptions: o.threadsData.subscriptions,
          claimLeaseMs: o.claimLeaseMs,
          insightsLockMs: o.insightsLockMs,
          nice: o.threadsData.nice,
          serviceName: "insights-digest-worker",
          size: o.threads,
          threadModule: o.threadModule,
          stream: { name: o.queueName, leaseMs: o.streamLeaseMs },
        })
      : undefined;
  const runner = pool ? undefined : createInteractiveRunner({ ...o, redis });
  const execute = (job: InteractiveJob): Promise<InteractiveOutcome> =>
    pool ? pool.run(job) : (runner as NonNullable<typeof runner>).run(job);
  // Deliveries give way to what runs on their loop: the legacy queue's requests, and without threads
  // the stream's.
  const run = (job: InteractiveJob): Promise<InteractiveOutcome> => {
    const ended = o.giveWay?.request();
    return execute(job).finally(() => ended?.());
  };
  const consumer = pool
    ? undefined
    : startStreamConsumer({
        connection: redis,
        blocking: o.connection,
        prefix: o.config.queuePrefix,
        name: o.queueName,
        concurrency: o.config.interactive.concurrency,
        leaseMs: o.streamLeaseMs,
        logger: o.logger,
        run,
        // A run that failed on Redis (a claim no replica confirmed, a primary cut off or gone, a
        // failover) runs again here shortly.
        retryInMs: (err, job) => retryOnRedis(err, job),
      });
  const legacy = drainLegacyQueue({
    connection: o.connection ?? o.redis,
    prefix: o.config.queuePrefix,
    name: o.queueName,
    concurrency: o.config.interactive.concurrency,
    logger: o.logger,
    convert: fromLegacyJob,
    run,
  });
  o.logger.info(
    {
      consumer: consumer?.name ?? "in each thread",
      concurrency: o.config.interactive.concurrency,
      threads: pool?.threads() ?? 0,
    },
    "interactive worker started",
  );
  return {
    /** Resolves once the threads can take requests (at once without threads, or after `ms`). */
    ready: (ms?: number) => pool?.ready(ms) ?? Promise.resolve(),
    /** The threads' metrics, for the process's /metrics (none without threads). */
    threadMetrics: (): Promise<unknown[][]> => pool?.metrics() ?? Promise.resolve([]),
    async close() {
      await Promise.all([consumer?.close(), legacy.close()]);
      await pool?.close();
      await runner?.close();
      await redis.quit().catch(() => redis.disconnect());
    },
    /** Drops its connections without waiting (a stop past SHUTDOWN_TIMEOUT_MS). */
    async disconnect() {
      consumer?.disconnect();
      redis.disconnect();
      await pool?.terminate();
      await legacy.disconnect();
    },
  };
}
