import type { AddressInfo } from "node:net";
import type { App } from "@slack/bolt";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import {
  createInstallationStore,
  createInstallLayer,
  type RemoveSchedulers,
  registerLifecycleEvents,
} from "../install/index.ts";
import { DEFAULT_POLICY, type DeliveryPolicy } from "../jobs/queue.ts";
import { createSubscriptionRuntime } from "../jobs/runtime.ts";
import type { Logger } from "../log.ts";
import { createMetrics, metricsHandler } from "../metrics.ts";
import { createSlackApp } from "../slack/app.ts";
import type { SlackDeps } from "../slack/services.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import { composeCore } from "./compose.ts";
import { connectRedis } from "./redis.ts";

export interface WebOptions {
  config: Config;
  logger: Logger;
  /** Reuse a connection (tests, `start`); otherwise one is opened from REDIS_URL and closed on stop. */
  redis?: RedisClient;
  prefix?: string;
  clock?: () => Date;
  host?: string;
  /** Adjust the built services before listeners are registered (e.g. OAuth installer lookup). */
  customize?: (deps: SlackDeps) => SlackDeps;
  extend?: (app: App, deps: SlackDeps) => void;
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
}

export interface WebHandle {
  app: App;
  deps: SlackDeps;
  /** Base URL of the HTTP receiver (empty in Socket Mode). */
  url: string;
  close(): Promise<void>;
}

/** The `web` composition root: services, Bolt app, HTTP receiver (or Socket Mode). */
export async function startWeb(options: WebOptions): Promise<WebHandle> {
  const { config, logger } = options;
  if (!config.keyring) throw new AppError("config", "ENCRYPTION_KEYS is required to start the web process.");
  const ownRedis = !options.redis;
  if (!options.redis && !config.redisUrl)
    throw new AppError("config", "REDIS_URL is required to start the web process.");
  const redis = options.redis ?? connectRedis(config.redisUrl as string, logger);
  const keyring = config.keyring;
  // The queue shares the fail-fast connection: web only writes records, schedulers and one-off jobs.
  const runtime = createSubscriptionRuntime({
    redis,
    queuePrefix: config.queuePrefix,
    logger,
    prefix: options.prefix,
    queueName: options.subscriptions?.queueName,
    clock: options.clock,
    policy: { ...DEFAULT_POLICY, ...options.subscriptions?.policy },
    limits: options.subscriptions?.limits,
  });
  const { subscriptions } = runtime;
  const metrics = createMetrics({
    queueDepth: () => runtime.queue.getJobCounts("waiting", "active", "delayed", "failed"),
  });
  const core = composeCore({
    metrics,
    config,
    logger,
    redis,
    keyring,
    prefix: options.prefix,
    clock: options.clock,
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
  const withInstaller = install ? { ...core, installerOf: install.installerOf } : core;
  const deps = options.customize ? options.customize(withInstaller) : withInstaller;
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
    customRoutes: [{ path: "/metrics", method: ["GET"], handler: metricsHandler(metrics) }],
    oauth: install?.appOptions(options.redirectUri ? { redirectUri: options.redirectUri } : undefined),
    extend: (a) => {
      // app_uninstalled / tokens_revoked purge the workspace in either mode.
      registerLifecycleEvents(a, lifecycle);
      options.extend?.(a, deps);
    },
  });
  let url = "";
  if (config.slack.appToken) {
    await app.start();
    logger.info("web started in Socket Mode");
  } else {
    const server = (await app.start({
      port: config.port,
      host: options.host,
    })) as unknown as import("node:http").Server;
    const addr = server.address() as AddressInfo;
    url = `http://${options.host ?? "127.0.0.1"}:${addr.port}`;
    logger.info({ port: addr.port }, "web listening: /slack/events, /healthz, /readyz, /metrics");
  }
  return {
    app,
    deps,
    url,
    async close() {
      await app.stop();
      await runtime.close();
      if (ownRedis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
