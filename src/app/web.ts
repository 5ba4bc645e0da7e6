import type { AddressInfo } from "node:net";
import type { App } from "@slack/bolt";
import { SLASH_COMMAND } from "../../commands/index.ts";
import { clockOf } from "../clock.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { createInstallationStore, createInstallLayer, type RemoveSchedulers } from "../install/index.ts";
import { createStreamExecutor } from "../interactive/queue.ts";
import type { InteractiveExecutor, Offload } from "../interactive/types.ts";
import { createDeliveryLog } from "../jobs/delivery-log.ts";
import { DEFAULT_POLICY, type DeliveryPolicy } from "../jobs/queue.ts";
import { oldestWaitingSeconds, queueCounts } from "../jobs/queue-state.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import type { Logger } from "../log.ts";
import { createMetrics, metricsHandler } from "../metrics.ts";
import { opsRoutes } from "../ops/routes.ts";
import { createSlackApp } from "../slack/app.ts";
import type { ListenerEntry } from "../slack/frame/index.ts";
import { LISTENERS, lifecycleEvents } from "../slack/listeners/index.ts";
import type { AppServices } from "../slack/services.ts";
import { checkEviction, watchEviction } from "../store/eviction.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { withReplication } from "../store/replication-report.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import { createTracing, type Tracing } from "../tracing.ts";
import { composeCore } from "./compose.ts";
import { startInteractivePool } from "./interactive-pool.ts";
import { confirmerFor, connectRedis } from "./redis.ts";

/** How long an idle kept-alive connection to the web process stays open (above proxies' 60 s). */
const KEEP_ALIVE_MS = 65_000;

export interface WebOptions {
  config: Config;
  logger: Logger;
  /** Reuse a connection (tests, `start`); otherwise one is opened from REDIS_URL and closed on stop. */
  redis?: RedisClient;
  prefix?: string;
  clock?: () => Date;
  host?: string;
  /** Extra entries for the listener frame (tests that probe the frame with a listener of their own). */
  listeners?: ListenerEntry[];
  /** Removes a workspace's BullMQ schedulers when it uninstalls [the subscription service's removeWorkspace]. */
  removeSchedulers?: RemoveSchedulers;
  /**
   * The producer side of scheduled digests. Must match the worker's: the same `queueName` (tests use
   * one per file), and the same `policy`, since schedulers written here give their jobs its attempts.
   */
  subscriptions?: {
    queueName?: string;
    limits?: Partial<SubscriptionLimits>;
    policy?: Partial<DeliveryPolicy>;
  };
  /** OAuth redirect URL when it differs from the app's configured one (sandbox). */
  redirectUri?: string;
  /** Where digest work runs, off the event loop that acks Slack's requests. */
  interactive?: WebInteractiveOptions;
  /** How often Redis' maxmemory-policy is read again [60 s]. */
  evictionCheckMs?: number;
  /** Traces [OTLP to OTEL_EXPORTER_OTLP_ENDPOINT when set, else none]; tests pass an in-memory exporter's. */
  tracing?: Tracing;
}

/** Options of the hand-off of digest work. Defaults in brackets. */
export interface WebInteractiveOptions {
  /**
   * `queue` [default]: worker processes compute digests from the hand-off stream (Procfile web +
   * worker). `threads`: a pool of INTERACTIVE_THREADS threads in this process (`start`, the demo).
   */
  mode?: "queue" | "threads";
  /** Hand-off stream name [interactive]; must match the workers'. */
  queueName?: string;
  /** Lease of a request's claim in the threads [6 s]. */
  claimLeaseMs?: number;
  /**
   * The module the threads run [this build's app/interactive-thread]. A test stack that runs the
   * TypeScript sources gives the compiled one when the build is fresh: a thread then starts without
   * tsx, on half the CPU.
   */
  threadModule?: URL;
}

export interface WebHandle {
  app: App;
  deps: AppServices;
  /** Base URL of the HTTP receiver (empty in Socket Mode). */
  url: string;
  /** Resolves once the digest threads (`threads` mode) have loaded and take work; at once otherwise. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The digest executor: the hand-off stream (workers elsewhere) or threads in this process. */
function startExecutor(
  o: WebOptions,
  redis: RedisClient,
): InteractiveExecutor | ReturnType<typeof startInteractivePool> {
  const i = o.interactive ?? {};
  if (i.mode === "threads") {
    if (!o.config.redisUrl) throw new AppError("config", "REDIS_URL is required for the digest threads.");
    return startInteractivePool({
      config: o.config,
      redisUrl: o.config.redisUrl,
      logger: o.logger,
      prefix: o.prefix,
      subscriptions: {
        queueName: o.subscriptions?.queueName,
        limits: o.subscriptions?.limits,
        policy: o.subscriptions?.policy,
      },
      claimLeaseMs: i.claimLeaseMs,
      threadModule: i.threadModule,
    });
  }
  // A hand-off no replica holds is lost with its primary in a failover, the request unanswered and
  // nobody told: it is written again until one does (see hand-off.ts).
  let confirmation: ReturnType<typeof confirmerFor> | undefined;
  const executor = createStreamExecutor({
    connection: redis,
    prefix: o.config.queuePrefix,
    name: i.queueName,
    confirmWith:
      o.config.redisConfirmWrites === "off"
        ? undefined
        : (writer) => {
            confirmation = confirmerFor(o.config, writer, o.logger);
            return confirmation.confirmer;
          },
  });
  return {
    ...executor,
    async close() {
      await executor.close();
      confirmation?.close();
    },
  };
}

/** The `web` composition root: services, Bolt app, HTTP receiver (or Socket Mode). */
export async function startWeb(options: WebOptions): Promise<WebHandle> {
  const { config, logger } = options;
  if (!config.keyring) throw new AppError("config", "ENCRYPTION_KEYS is required to start the web process.");
  const ownRedis = !options.redis;
  if (!options.redis && !config.redisUrl)
    throw new AppError("config", "REDIS_URL is required to start the web process.");
  const redis =
    options.redis ?? connectRedis(config.redisUrl as string, logger, "client", config.redisCommandTimeoutMs);
  const keyring = config.keyring;
  let eviction: Awaited<ReturnType<typeof checkEviction>>;
  try {
    eviction = await checkEviction({ redis, allowEviction: config.allowEviction, logger });
  } catch (err) {
    if (ownRedis) redis.disconnect();
    throw err;
  }
  // The calendar's clock (CLOCK_AT moves it for a chosen day); token lifetimes stay on Slack's.
  const clock = options.clock ?? clockOf(config);
  // The queue shares the fail-fast connection: web only writes records, schedulers and one-off jobs.
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger,
    prefix: options.prefix,
    queueName: options.subscriptions?.queueName,
    clock,
    policy: { ...DEFAULT_POLICY, ...options.subscriptions?.policy },
    limits: options.subscriptions?.limits,
  });
  const { subscriptions } = runtime;
  const tracing =
    options.tracing ??
    (await createTracing({ endpoint: config.otlpEndpoint, serviceName: "insights-digest-web" }));
  let backlog: (() => Promise<number>) | undefined;
  const keys = createKeyScheme({ prefix: options.prefix });
  const deliveryLog = createDeliveryLog({ redis, keys, lateAfterMs: config.deliveryLateMs });
  const evictionWatch = watchEviction({
    redis,
    first: eviction,
    allowEviction: config.allowEviction,
    logger,
    everyMs: options.evictionCheckMs,
  });
  const metrics = createMetrics({
    queueDepth: () => queueCounts(runtime.queue),
    interactiveBacklog: () => backlog?.() ?? Promise.resolve(0),
    oldestWaiting: () => oldestWaitingSeconds(runtime.queue, Date.now()),
    failingWorkspaces: () => deliveryLog.failingWorkspaces(clock().getTime() - 3_600_000),
    evictionPolicy: () => evictionWatch.report().maxmemoryPolicy,
  });
  const core = composeCore({
    metrics,
    tracing,
    config,
    logger,
    redis,
    keyring,
    prefix: options.prefix,
    clock,
    subscriptions,
  });
  const removeSchedulers: RemoveSchedulers =
    options.removeSchedulers ??
    (async (ref) => {
      await subscriptions.removeWorkspace(ref);
    });
  // OAuth mode when the client credentials are set (config.ts checks they come as a set).
  const install = config.slack.clientId
    ? createInstallLayer({
        redis,
        keyring,
        prefix: options.prefix,
        logger,
        slack: config.slack,
        removeSchedulers,
      })
    : undefined;
  const executor = startExecutor(options, redis);
  backlog = () => executor.depth();
  // Digest threads count into registries of their own; /metrics sums them with this one.
  const threadMetrics = "metrics" in executor ? executor.metrics : undefined;
  const offload: Offload = {
    executor,
    backlog: config.interactive.backlog,
    busyAfterMs: config.interactive.busyAfterMs,
    admitted: (outcome) => metrics.interactive.inc({ outcome }),
  };
  const deps = { ...core, offload, ...(install ? { installerOf: install.installerOf } : {}) };
  const lifecycle = install?.lifecycle ?? {
    redis,
    keys: deps.keys,
    records: createInstallationStore({ redis, keyring, prefix: options.prefix, logger }),
    removeSchedulers,
    logger,
  };
  const app = createSlackApp({
    slack: config.slack,
    deps,
    customRoutes: [
      {
        path: "/metrics",
        method: ["GET"],
        handler: metricsHandler(metrics, () => threadMetrics?.() ?? Promise.resolve([])),
      },
      // The operators' page exists only with a token to guard it: without one, /ops is a 404.
      ...(config.opsToken
        ? opsRoutes({
            token: config.opsToken,
            sources: { queue: runtime.queue, log: deliveryLog, subscriptions, clock },
            retry: { redis, keys, subscriptions, scheduler: runtime.scheduler, logger },
            logger,
          })
        : []),
    ],
    oauth: install?.appOptions(options.redirectUri ? { redirectUri: options.redirectUri } : undefined),
    installed: install?.installed,
    readiness: withReplication(evictionWatch.report, redis, config.redisUrl),
    problem: evictionWatch.problem,
    // A single process computes digests in threads that load the app's modules first (seconds on a
    // busy machine): until one can take a digest, requests would only wait, so it is not ready.
    waitingFor:
      "readyThreads" in executor
        ? () => (executor.readyThreads() > 0 ? undefined : "digest threads starting")
        : undefined,
    routes: {
      command: SLASH_COMMAND,
      // app_uninstalled / tokens_revoked purge the workspace in either mode.
      listeners: [...LISTENERS, ...lifecycleEvents(lifecycle), ...(options.listeners ?? [])],
    },
  });
  let url = "";
  try {
    if (config.slack.appToken) {
      await app.start();
      logger.info("web started in Socket Mode");
    } else {
      const server = (await app.start({
        port: config.port,
        host: options.host,
      })) as unknown as import("node:http").Server;
      // Idle kept-alive connections stay open past the usual proxy idle timeouts (a load balancer's
      // 60 s): a proxy reusing a connection just as Node's default 5 s closed it gets a reset, answers
      // Slack with a 502, and Slack retries a request the app never saw.
      server.keepAliveTimeout = KEEP_ALIVE_MS;
      server.headersTimeout = KEEP_ALIVE_MS + 1_000;
      const addr = server.address() as AddressInfo;
      url = `http://${options.host ?? "127.0.0.1"}:${addr.port}`;
      logger.info(
        { port: addr.port },
        `web listening: /slack/events, /healthz, /readyz, /metrics${config.opsToken ? ", /ops" : ""}`,
      );
    }
  } catch (err) {
    // Threads keep a process alive: a web that could not start must not leave them behind.
    evictionWatch.close();
    await executor.close().catch(() => undefined);
    throw err;
  }
  return {
    app,
    deps,
    url,
    ready: () => ("ready" in executor ? executor.ready() : Promise.resolve()),
    async close() {
      evictionWatch.close();
      await app.stop();
      await executor.close();
      await core.close();
      await runtime.close();
      if (ownRedis) await redis.quit().catch(() => redis.disconnect());
      if (!options.tracing) await tracing.shutdown().catch(() => undefined);
    },
  };
}
