import { Worker } from "bullmq";
import type { RetryPolicy } from "../analytics/retry.ts";
import { createChartRenderer } from "../chart/index.ts";
import { clockOf } from "../clock.ts";
import type { Config, KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import { createInstallLayer } from "../install/index.ts";
import { createAlertState } from "../jobs/alert-state.ts";
import { createBegin, createFinish } from "../jobs/begin.ts";
import type { ChartWait } from "../jobs/chart-ready.ts";
import { createDeliveryClaims } from "../jobs/claims.ts";
import { createDeliveryProcessor, type DeliveryResult } from "../jobs/deliver.ts";
import { createDeliveryLog } from "../jobs/delivery-log.ts";
import { createGiveWay, type GiveWayOptions } from "../jobs/give-way.ts";
import { type HealthServer, startHealthServer } from "../jobs/health.ts";
import { inJobSpan } from "../jobs/job-spans.ts";
import { startStallCheck } from "../jobs/liveness.ts";
import { migrateLegacyData } from "../jobs/migrate.ts";
import { createPacer, type PacingPolicy } from "../jobs/pacing.ts";
import {
  DEFAULT_POLICY,
  type DeliveryJobData,
  type DeliveryPolicy,
  type DeliveryQueue,
  KEEP_JOBS,
} from "../jobs/queue.ts";
import { oldestWaitingSeconds, queueCounts } from "../jobs/queue-state.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import { createSlackApi } from "../jobs/slack-api.ts";
import { createSlotLookahead } from "../jobs/slot-lookahead.ts";
import { createSlotWarmup } from "../jobs/slot-warm.ts";
import { createSlotWarmMarks } from "../jobs/slot-warm-marks.ts";
import { createStallRecovery, STALLED_REASON, stalledOut } from "../jobs/stalled.ts";
import { createVerdictSink, withVerdicts } from "../jobs/verdicts.ts";
import type { Logger } from "../log.ts";
import { withLogContext } from "../log.ts";
import { codeOf, createMetrics, metricsHandler } from "../metrics.ts";
import { lowerPriority } from "../priority.ts";
import { checkEviction, type EvictionWatch, watchEviction } from "../store/eviction.ts";
import { createKeyScheme, type WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { withReplication } from "../store/replication-report.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import { createTracing, inSpan, type Tracing } from "../tracing.ts";
import { closeWithin } from "./bounded-close.ts";
import { composeDigests } from "./compose.ts";
import { type InteractiveWorkerOptions, startInteractiveWorker } from "./interactive-worker.ts";
import { autoPipelined, confirmerFor, connectRedis, withCommandTimeout } from "./redis.ts";

/** Options of startWorker; everything past `logger` has a production default. */
export interface WorkerOptions {
  config: Config;
  logger: Logger;
  /**
   * A worker connection (maxRetriesPerRequest: null), BullMQ's; otherwise one is opened from REDIS_URL and
   * closed on stop. The app's own commands go through a copy with a deadline (REDIS_COMMAND_TIMEOUT_MS).
   */
  redis?: RedisClient;
  /** Redis key prefix of the store (tests use one per file). */
  prefix?: string;
  /** Delivery queue name (tests use one per test). */
  queueName?: string;
  clock?: () => Date;
  /** Slack Web API base URL [config.slack.apiUrl]. */
  slackApiUrl?: string;
  /** Bot token per workspace. Default: SLACK_BOT_TOKEN, else the OAuth installation store. */
  tokenFor?: (ref: WorkspaceRef) => Promise<string>;
  policy?: Partial<DeliveryPolicy>;
  /** Claim lease and memory (see createDeliveryClaims). */
  claims?: { leaseMs?: number; doneTtlMs?: number };
  /**
   * BullMQ lock and stall settings [30 s lock, 30 s stall check, 2 stalls, checks on]. A worker with
   * `skipStalledCheck` never moves stalled jobs itself and leaves that to the other workers.
   */
  locks?: {
    lockDuration?: number;
    stalledInterval?: number;
    maxStalledCount?: number;
    skipStalledCheck?: boolean;
    /** How many times a delivery BullMQ failed for stalling is added again before it is recorded failed [3]. */
    stallReadds?: number;
  };
  /** The analytics client's own retries inside one attempt [its defaults]. */
  analyticsRetry?: Partial<RetryPolicy>;
  /** How long the shared insights cache remembers a failure [2 s]. */
  insightsErrorTtlMs?: number;
  /** How long one process may hold an insights query's shared-fetch lock [30 s]; a crashed holder blocks peers that long. */
  insightsLockMs?: number;
  /** Port of /healthz and /readyz; default config.healthPort; null = no health server. */
  healthPort?: number | null;
  /** How often Redis' maxmemory-policy is read again, where /readyz reports it [60 s]. */
  evictionCheckMs?: number;
  limits?: Partial<SubscriptionLimits>;
  /** Digests people wait for, handed off by the web processes (interactive-worker.ts); false: none [on]. */
  interactive?: false | InteractiveWorkerOptions;
  /** When deliveries wait to start while those requests run here (give-way.ts) [its defaults]. */
  giveWay?: Pick<GiveWayOptions, "lateMs" | "floorMs">;
  /** How long a delivery waits for Slack to process its chart [8 s, polls from 250 ms]. */
  chartWait?: Partial<ChartWait>;
  /** Slack budgets per workspace and channel [Slack's limits, non-Marketplace history]. */
  pacing?: Partial<PacingPolicy>;
  /** A takeover that cannot tell whether a post went out gives up after this long [6 h]. */
  takeoverGiveUpMs?: number;
  /** How long close() waits for jobs in flight and Redis before it drops the connections [config.shutdownMs]. */
  shutdownMs?: number;
  /** Traces [OTLP to OTEL_EXPORTER_OTLP_ENDPOINT when set, else none]; tests pass an in-memory exporter's. */
  tracing?: Tracing;
  /**
   * How long jobs may wait, untaken by this worker with a free slot, before it counts as stalled: one
   * log line, its BullMQ worker rebuilt on fresh connections, /livez and /readyz 503 until it takes a
   * job again [config.workerStallMs]; 0: no check.
   */
  stallMs?: number;
}

/** A running worker process part. */
export interface WorkerHandle {
  /** The BullMQ worker now (the stall check replaces a stalled one). */
  readonly worker: Worker<DeliveryJobData, DeliveryResult, string>;
  queue: DeliveryQueue;
  subscriptions: SubscriptionService;
  /** Bound port of the health server, when started. */
  healthPort: number | undefined;
  /**
   * Resolves once the request threads read the hand-off stream (they read it themselves, a second or
   * two after the start under load), or after `ms`: until then this process takes no request.
   */
  requestsReady(ms?: number): Promise<void>;
  /** Stops taking jobs, waits for those in flight, closes connections. */
  close(): Promise<void>;
}

/**
 * Where bot tokens come from: the caller's lookup, else SLACK_BOT_TOKEN (single workspace), else the
 * OAuth installation store (tokens refreshed under its lock when they rotate).
 */
function tokenLookup(
  o: WorkerOptions,
  redis: RedisClient,
  keyring: KeyringEntry[],
): (ref: WorkspaceRef) => Promise<string> {
  if (o.tokenFor) return o.tokenFor;
  const { slack } = o.config;
  const token = slack.botToken;
  if (token) return async () => token;
  if (slack.clientId && slack.clientSecret)
    return createInstallLayer({ redis, keyring, prefix: o.prefix, logger: o.logger, slack, clock: o.clock })
      .botToken;
  throw new AppError(
    "config",
    "The worker needs SLACK_BOT_TOKEN, or SLACK_CLIENT_ID and SLACK_CLIENT_SECRET (OAuth).",
    {
      details: { variables: ["SLACK_BOT_TOKEN"] },
    },
  );
}

/**
 * How much nicer than WORKER_NICE a worker's main thread, where deliveries run, becomes once requests
 * run on threads of their own: about half the share of a core against a request thread. Not 19: the
 * main thread also answers /readyz, drains the legacy queue and stops the process, and at 19 a
 * second SIGTERM on a loaded host took 2.6–5.6 s instead of 0.7–0.8 s.
 */
export const DELIVERY_NICE_STEP = 3;

/**
 * The `worker` composition root: the delivery queue's worker with `config.workerConcurrency`, the
 * scheduler reconcile at start, and a health server. Everything it needs is built here and handed down.
 */
export async function startWorker(o: WorkerOptions): Promise<WorkerHandle> {
  const { config, logger } = o;
  if (!config.keyring) throw new AppError("config", "ENCRYPTION_KEYS is required to start the worker.");
  if (!o.redis && !config.redisUrl)
    throw new AppError("config", "REDIS_URL is required to start the worker.");
  const bullmq = o.redis ?? connectRedis(config.redisUrl as string, logger, "worker");
  // The app's own commands get a deadline; BullMQ's workers keep theirs without one (their blocking
  // reads wait longer than any deadline, and BullMQ retries its own commands).
  const redis = withCommandTimeout(bullmq, config.redisCommandTimeoutMs, logger);
  let tokenFor: (ref: WorkspaceRef) => Promise<string>;
  let eviction: Awaited<ReturnType<typeof checkEviction>>;
  try {
    tokenFor = tokenLookup(o, redis, config.keyring);
    eviction = await checkEviction({ redis, allowEviction: config.allowEviction, logger });
  } catch (err) {
    // An open connection would keep a worker that cannot start alive, printing nothing more.
    redis.disconnect();
    if (!o.redis) bullmq.disconnect();
    throw err;
  }
  const clock = o.clock ?? clockOf(config);
  const tracing =
    o.tracing ??
    (await createTracing({ endpoint: config.otlpEndpoint, serviceName: "insights-digest-worker" }));
  const { tracer } = tracing;
  const keys = createKeyScheme({ prefix: o.prefix });
  // The deliveries' own commands (caches, claims, records), batched per tick across the deliveries
  // running at once; BullMQ's queue and the pacer's rate limiter stay on \`redis\`.
  const piped = autoPipelined(redis, logger, "pipelined");

  // Queue readings come lazily from the queue created below.
  let watched: DeliveryQueue | undefined;
  // Watched where it is reported: `start` runs its worker without a health server, and its web watches.
  let evictionWatch: EvictionWatch | undefined;
  const deliveryLog = createDeliveryLog({ redis: piped, keys, lateAfterMs: config.deliveryLateMs });
  const metrics = createMetrics({
    queueDepth: () => (watched ? queueCounts(watched) : Promise.resolve({})),
    oldestWaiting: () => (watched ? oldestWaitingSeconds(watched, Date.now()) : Promise.resolve(0)),
    failingWorkspaces: () => deliveryLog.failingWorkspaces(clock().getTime() - 3_600_000),
    evictionPolicy: () => evictionWatch?.report().maxmemoryPolicy ?? "unknown",
  });
  const verdicts = createVerdictSink({ metrics, log: deliveryLog, logger });
  // A short error memory: a BullMQ retry after its backoff should ask the service again.
  const { apiKeys, digests, digestsWith, driversCache } = composeDigests({
    config,
    logger,
    redis: piped,
    keyring: config.keyring,
    metrics,
    prefix: o.prefix,
    interactive: false,
    retry: o.analyticsRetry,
    insightsErrorTtlMs: o.insightsErrorTtlMs ?? 2_000,
    insightsLockMs: o.insightsLockMs,
    tracer,
  });

  const policy = { ...DEFAULT_POLICY, ...o.policy };
  const { queue, store, subscriptions, scheduler, registry } = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger,
    prefix: o.prefix,
    queueName: o.queueName,
    clock,
    policy,
    limits: o.limits,
  });
  watched = queue;
  const charts = config.charts ? createChartRenderer() : undefined;
  const slackApi = createSlackApi({
    apiUrl: o.slackApiUrl ?? config.slack.apiUrl,
    timeoutMs: config.slack.timeoutMs,
  });
  // The writes that decide a post (the claim, the note that a post goes out, the verdict) have a
  // connection of their own: a replica's acknowledgement (WAIT) covers the writes of the connection
  // it is asked on, and while it is awaited that connection carries nothing else.
  const decisive = autoPipelined(
    redis,
    logger,
    "decisive",
    Math.max(config.redisCommandTimeoutMs, config.redisConfirmTimeoutMs + 1_000),
  );
  const confirmation = confirmerFor(config, decisive, logger);
  const { confirmer } = confirmation;
  const claims = createDeliveryClaims({ redis: decisive, keys, confirmer, ...o.claims });
  const warm = createSlotWarmup({ store, digests, logger, clock });
  const marks = createSlotWarmMarks({ redis, keys });
  // Slots about to fire get their drivers computed before they do (each fire by one process).
  const lookahead =
    config.slotWarmLeadMs > 0
      ? createSlotLookahead({
          queue,
          registry,
          store,
          warm,
          marks,
          leadMs: config.slotWarmLeadMs,
          logger,
          clock,
        })
      : undefined;
  const alerts = createAlertState({ redis: piped, keys });
  // Every verdict is counted into the metrics and the operators' delivery log as it is written.
  const finish = withVerdicts(
    createFinish({ redis: decisive, keys, doneTtlMs: claims.doneTtlMs, confirmer, logger }),
    verdicts,
  );
  const processor = createDeliveryProcessor({
    store,
    subscriptions,
    notifier: scheduler,
    claims,
    begin: createBegin({ redis: decisive, keys, leaseMs: claims.leaseMs, doneTtlMs: claims.doneTtlMs }),
    finish,
    alerts,
    apiKeys,
    digestsWith,
    pacer: createPacer({ redis, keys, policy: o.pacing }),
    // A post goes out within one Slack call's timeout of being noted (10 s); a worker stalled longer
    // than that inside the post is the gap no check closes.
    windowMs: 60_000,
    fanOut: {
      store,
      registry,
      queue,
      policy,
      warm,
      warmedAhead: marks.walkedAhead,
      tracer,
      traceparent: () => tracing.traceparent(),
    },
    // A span per Slack call, named by method: neither the token nor the arguments go into it.
    slack: {
      call: (token, method, args) =>
        inSpan(tracer, `slack.${method}`, { "slack.method": method }, () =>
          metrics.timeSlack(method, () => slackApi.call(token, method, args)),
        ),
      upload: (url, bytes, type) =>
        inSpan(tracer, "slack.upload", { "slack.method": "upload" }, () =>
          metrics.timeSlack("upload", () => slackApi.upload(url, bytes, type)),
        ),
    },
    renderChart: charts ? (input) => charts.render(input) : undefined,
    chartWait: o.chartWait,
    tokenFor,
    logger,
    clock,
    takeoverGiveUpMs: o.takeoverGiveUpMs,
    verdicts,
  });

  await migrateLegacyData({ redis, keys, store, logger });
  const kept = await alerts.keepAll();
  if (kept > 0) logger.debug({ kept }, "alert messages and votes kept for as long as their alerts");
  await subscriptions.reconcile();
  // Every log line written while a job runs carries its id (and the subscription's scheduler id).
  const traced: typeof processor = (job, token) =>
    withLogContext({ jobId: String(job.id), sub: String(job.data.sub) }, () =>
      inJobSpan(tracing, job, () => processor(job, token)),
    );
  let closing = false;
  // Requests run on threads of their own when this worker opened its own connection (a thread
  // cannot share one handed in) and knows REDIS_URL to open theirs.
  const requestThreads =
    o.interactive === false || o.redis || !config.redisUrl
      ? 0
      : (o.interactive?.threads ?? config.interactive.workerThreads);
  // On this event loop, deliveries wait to start while a request people wait on runs on a late loop
  // (give-way.ts). On threads they do not: the request's steps no longer queue behind theirs.
  const giveWay =
    o.interactive === false || requestThreads > 0
      ? undefined
      : createGiveWay({
          ...o.giveWay,
          onWait: (waiting) =>
            logger.debug({ waiting }, "a delivery gives way to the requests people wait on"),
        });
  // Slots in use and when a job was last taken, for the stall check (liveness.ts).
  let running = 0;
  let lastTakenAt = Date.now();
  const counted: typeof processor = (job, token) => {
    running++;
    lastTakenAt = Date.now();
    return (giveWay ? giveWay.pass() : Promise.resolve())
      .then(() => traced(job, token))
      .finally(() => {
        running--;
      });
  };
  const workerOptions = {
    connection: bullmq,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    lockDuration: o.locks?.lockDuration ?? 30_000,
    stalledInterval: o.locks?.stalledInterval ?? 30_000,
    // A worker killed mid-delivery stalls its job once; the claim keeps a second run from double-posting.
    maxStalledCount: o.locks?.maxStalledCount ?? 2,
    skipStalledCheck: o.locks?.skipStalledCheck ?? false,
    // No queue-wide limiter: Slack's limits are per workspace and channel, paced per job (pacing.ts).
    ...KEEP_JOBS,
  };
  // A job BullMQ failed unrun for stalling too often: added again, or recorded failed (stalled.ts).
  const recoverStalled = createStallRecovery({
    queue,
    store,
    finish,
    post: async (ref, channel, message) =>
      slackApi.call(await tokenFor(ref), "chat.postMessage", { channel, ...message }),
    logger,
    clock,
    maxReadds: o.locks?.stallReadds,
  });
  const recovering = new Set<Promise<void>>();
  /** A BullMQ worker on connections of its own (BullMQ duplicates `bullmq` for each), with its listeners. */
  const startBullWorker = () => {
    const w = new Worker<DeliveryJobData, DeliveryResult, string>(queue.name, counted, workerOptions);
    w.on("error", (err) => logger.warn({ err: { message: err.message } }, "delivery worker error"));
    // Only the worker whose stall check found the job says so: each stall is counted once.
    w.on("stalled", (jobId) => {
      metrics.stalledJobs.inc();
      logger.warn({ jobId }, "a delivery job stalled (its worker died or was starved); it runs again");
      deliveryLog.stalled(clock()).catch(() => undefined);
    });
    w.on("completed", (_job, result) => {
      if (result?.status !== "delivered") return;
      metrics.digests.inc({ surface: "scheduled", outcome: "delivered", reason: "" });
      if (result.chart) metrics.charts.inc({ outcome: result.chart });
    });
    w.on("failed", (job, err) => {
      if (job && stalledOut(job, err)) {
        const done = recoverStalled(job).then(
          (r) => {
            const outcome = r.kind === "readded" ? "requeued" : r.kind === "gave_up" ? "failed" : "ignored";
            metrics.digests.inc({ surface: "scheduled", outcome, reason: STALLED_REASON });
          },
          (e: unknown) => {
            // Nothing else will run this delivery: say so as loudly as the logs and metrics allow.
            metrics.digests.inc({ surface: "scheduled", outcome: "lost", reason: STALLED_REASON });
            logger.error(
              { jobId: job.id, sub: job.data.sub, err: e },
              "a stalled-out delivery could not be added again or recorded",
            );
          },
        );
        recovering.add(done);
        void done.finally(() => recovering.delete(done));
        return;
      }
      const final = job !== undefined && job.attemptsMade >= (job.opts.attempts ?? 1);
      metrics.digests.inc({
        surface: "scheduled",
        outcome: final ? "failed" : "retried",
        reason: codeOf(err),
      });
      logger.warn(
        { jobId: job?.id, sub: job?.data.sub, attempts: job?.attemptsMade, err: { message: err.message } },
        "delivery job failed",
      );
    });
    return w;
  };
  let worker = startBullWorker();
  // A worker the stall check replaced: closed without waiting for its (possibly stuck) blocking read.
  const rebuild = async () => {
    const stuck = worker;
    worker = startBullWorker();
    await closeWithin(5_000, () => stuck.close(true), [() => stuck.disconnect()]).catch(() => undefined);
  };
  const stallMs = o.stallMs ?? config.workerStallMs;
  const stall =
    stallMs > 0
      ? startStallCheck({
          stallMs,
          logger,
          async observe() {
            const counts = await queue.getJobCounts("wait", "prioritized");
            const paused = await queue.isPaused();
            return {
              running: !closing && worker.isRunning() && !worker.isPaused(),
              free: config.workerConcurrency - running,
              waiting: paused ? 0 : (counts.wait ?? 0) + (counts.prioritized ?? 0),
              lastTakenAt,
            };
          },
          onStall: rebuild,
        })
      : undefined;

  // ── interactive digests: the web processes' hand-off, read next to the delivery worker ──
  const interactive =
    o.interactive === false
      ? undefined
      : startInteractiveWorker({
          config,
          logger,
          redis,
          connection: bullmq,
          prefix: o.prefix,
          subscriptions,
          metrics,
          tokenFor,
          tracing,
          giveWay,
          sentinelView: confirmation.view,
          // Threads look bot tokens up themselves (SLACK_BOT_TOKEN or the installations), never
          // through `tokenFor`.
          ...o.interactive,
          threads: requestThreads,
          threadsData: config.redisUrl
            ? {
                redisUrl: config.redisUrl,
                nice: config.workerNice,
                subscriptions: { queueName: o.queueName, policy: o.policy, limits: o.limits },
              }
            : undefined,
        });
  // With the requests on threads started at WORKER_NICE, this thread (the deliveries') goes lower:
  // where the host is short of cores, a request's turn comes before a delivery's. Without giving way
  // (above) and at one priority the replies' p99 went from 1.1 s to 5.7 s in a 3,000-subscription
  // slot; three steps lower it was 1.7 s with the slot twice as fast.
  if (requestThreads > 0 && config.workerNice > 0) {
    const nice = Math.min(19, config.workerNice + DELIVERY_NICE_STEP);
    const outcome = lowerPriority(nice, [process.pid]);
    if (outcome.refused > 0) logger.warn({ nice }, "could not lower the deliveries' priority");
  }

  const port = o.healthPort === undefined ? config.healthPort : o.healthPort;
  let health: HealthServer | undefined;
  if (port !== null) {
    evictionWatch = watchEviction({
      redis,
      first: eviction,
      allowEviction: config.allowEviction,
      logger,
      everyMs: o.evictionCheckMs,
    });
    health = await startHealthServer({
      port,
      ready: () => !closing && worker.isRunning(),
      stalled: () => stall?.stalled() ?? false,
      redis,
      report: withReplication(
        () => ({ ...evictionWatch?.report(), writes: confirmer.report() }),
        redis,
        config.redisUrl,
      ),
      problem: evictionWatch.problem,
      metrics: metricsHandler(metrics, () => interactive?.threadMetrics() ?? Promise.resolve([])),
    });
  }
  // Four ticks per lead, at most one a second: a short lead still finds each slot early in it. A tick
  // reads the next few schedulers, nothing more, until one is due within the lead.
  lookahead?.start(Math.min(1_000, Math.max(100, config.slotWarmLeadMs / 4)));
  logger.info(
    { queue: queue.name, concurrency: config.workerConcurrency, healthPort: health?.port },
    "worker started",
  );

  return {
    get worker() {
      return worker;
    },
    queue,
    subscriptions,
    healthPort: health?.port,
    requestsReady: (ms?: number) => interactive?.ready(ms) ?? Promise.resolve(),
    async close() {
      closing = true;
      evictionWatch?.close();
      stall?.stop();
      await closeWithin(o.shutdownMs ?? config.shutdownMs, async () => {
        await lookahead?.stop();
        await interactive?.close();
        giveWay?.close();
        await worker.close();
        await Promise.all(recovering);
        await queue.close();
        await health?.close();
        await driversCache.close();
        await piped.quit().catch(() => piped.disconnect());
        await decisive.quit().catch(() => decisive.disconnect());
        confirmation.close();
        await redis.quit().catch(() => redis.disconnect());
        if (!o.redis) await bullmq.quit().catch(() => bullmq.disconnect());
        if (!o.tracing) await tracing.shutdown().catch(() => undefined);
      }, [
        () => interactive?.disconnect(),
        () => worker.disconnect(),
        () => queue.disconnect(),
        () => health?.close(),
        () => driversCache.close(),
        () => piped.disconnect(),
        () => decisive.disconnect(),
        () => confirmation.close(),
        () => redis.disconnect(),
        () => bullmq.disconnect(),
      ]);
      logger.info("worker stopped");
    },
  };
}
