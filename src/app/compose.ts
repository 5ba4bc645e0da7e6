import { hkdfSync } from "node:crypto";
import type { Tracer } from "@opentelemetry/api";
import { createAnalyticsClient } from "../analytics/client.ts";
import type { RetryPolicy } from "../analytics/retry.ts";
import { clockOf } from "../clock.ts";
import type { Config, KeyringEntry } from "../config.ts";
import { createDigestService, type DigestService } from "../digests/digest-service.ts";
import { createDriversCache } from "../digests/drivers-cache.ts";
import { createDriversPlanner } from "../digests/drivers-planner.ts";
import { batchLimits } from "../digests/drivers-service.ts";
import { createFilterListsCache } from "../digests/filter-lists.ts";
import { createInsightsCache } from "../digests/insights-cache.ts";
import { sharedBatcher } from "../digests/slices-batcher.ts";
import { createAlertState } from "../jobs/alert-state.ts";
import type { Logger } from "../log.ts";
import { createMetrics, instrumentAnalytics, type Metrics } from "../metrics.ts";
import type { AppServices } from "../slack/services.ts";
import { createUserDirectory } from "../slack/users.ts";
import { type ApiKeyStore, createApiKeyStore } from "../store/api-keys.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { createWorkspaceSettings } from "../store/workspace-settings.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import { NO_TRACING, type Tracing } from "../tracing.ts";

/**
 * The composition root: every service of the app is built here, once per process and role, from
 * the config and the connections the entry point opened (`web`, `worker` and `start` all come
 * through these two functions). Nothing below this creates clients of its own.
 */

export interface DigestsOptions {
  config: Config;
  logger: Logger;
  redis: RedisClient;
  keyring: KeyringEntry[];
  metrics: Metrics;
  /** Redis key prefix (tests use one per test file). */
  prefix?: string;
  /**
   * Someone waits on these digests: the analytics client gives up within 10 s, retries included.
   * Scheduled deliveries retry through BullMQ instead, with the client's own policy (`retry`).
   */
  interactive: boolean;
  retry?: Partial<RetryPolicy>;
  /** How long the shared insights cache remembers a failure [5 s; a worker's BullMQ retry wants less]. */
  insightsErrorTtlMs?: number;
  /** How long one process may hold an insights query's shared-fetch lock [30 s]. */
  insightsLockMs?: number;
  /** Spans of the analytics calls [none]. */
  tracer?: Tracer;
}

/** The digest side every process needs: the analytics client, API keys, the shared caches, digests. */
export function composeDigests(o: DigestsOptions) {
  const { config, logger, redis, prefix, metrics } = o;
  const keys = createKeyScheme({ prefix });
  const analytics = instrumentAnalytics(
    createAnalyticsClient({
      graphqlUrl: config.analytics.graphqlUrl,
      appUrl: config.analytics.appUrl,
      timeoutMs: config.analytics.timeoutMs,
      retry: o.interactive ? { maxTotalMs: 9_000, ...o.retry } : o.retry,
      logger,
    }),
    metrics,
    o.tracer,
  );
  const apiKeys = createApiKeyStore({ redis, keyring: o.keyring, prefix });
  const insightsCache = createInsightsCache({
    redis,
    keys,
    // Through the batcher the drivers' slices go through, so a digest's question can ride with them.
    client: sharedBatcher(analytics, batchLimits(config.drivers)),
    logger,
    errorTtlMs: o.insightsErrorTtlMs,
    lockMs: o.insightsLockMs,
  });
  const filterLists = createFilterListsCache({ redis, keys });
  const settings = createWorkspaceSettings({ redis, keys });
  const driversCache = createDriversCache({
    redis,
    keys,
    secret: driversSecret(o.keyring),
    logger,
    errorTtlMs: o.insightsErrorTtlMs,
    lockMs: o.insightsLockMs,
  });
  // One per process: a slot's fan-out plans here what its deliveries (digest services of their own) read.
  const driversPlanner = createDriversPlanner();
  /** Digests reading the API key through `loader` (a delivery passes the key it already loaded). */
  const digestsWith = (loader: Pick<ApiKeyStore, "load">): DigestService =>
    createDigestService({
      apiKeys: loader,
      insights: insightsCache,
      slices: analytics,
      driversCache,
      driversPlanner,
      platformUrl: config.platformUrl,
      drivers: config.drivers,
      gapRule: config.gapRule,
      logger,
      filterLists,
      charts: config.charts,
      settings,
    });
  return {
    keys,
    analytics,
    apiKeys,
    insightsCache,
    settings,
    driversCache,
    digestsWith,
    digests: digestsWith(apiKeys),
  };
}

/**
 * The secret that names accounts in the shared drivers cache, derived from the newest encryption
 * key for this one purpose: every process of a deployment derives the same, and it never doubles
 * as an encryption key.
 */
function driversSecret(keyring: KeyringEntry[]): Buffer {
  const newest = keyring[0];
  if (!newest) throw new Error("the keyring is empty");
  return Buffer.from(hkdfSync("sha256", newest.key, "", "insights-digest drivers account", 32));
}

export interface CoreOptions extends Omit<DigestsOptions, "metrics" | "interactive" | "tracer"> {
  /** Traces [none]: its tracer times the analytics calls, and the Slack side carries it. */
  tracing?: Tracing;
  clock?: () => Date;
  /** Built by the entry point with the queue it owns (see createSubscriptionRuntime). */
  subscriptions: SubscriptionService;
  metrics?: Metrics;
  /** [true unless config.mode is "worker"] */
  interactive?: boolean;
}

/**
 * The services the Slack side uses (listeners, the listener frame, interactive digest work), and
 * `close`, which ends the connections they opened themselves (the drivers cache's notice connection,
 * which would otherwise keep a stopping process or thread alive until it idles out).
 */
export function composeCore({
  clock,
  subscriptions,
  metrics = createMetrics({ defaultMetrics: false }),
  interactive,
  tracing = NO_TRACING,
  ...o
}: CoreOptions): AppServices & { close(): Promise<void> } {
  const { config, logger, redis } = o;
  const d = composeDigests({
    ...o,
    metrics,
    interactive: interactive ?? config.mode !== "worker",
    tracer: tracing.tracer,
  });
  return {
    logger,
    redis,
    keys: d.keys,
    apiKeys: d.apiKeys,
    users: createUserDirectory({ redis, keys: d.keys }),
    insightsCache: d.insightsCache,
    digests: d.digests,
    settings: d.settings,
    analytics: d.analytics,
    subscriptions,
    alerts: createAlertState({ redis, keys: d.keys }),
    metrics,
    policy: { adminUserIds: config.adminUserIds, digestAccess: config.digestAccess },
    installerOf: async () => undefined,
    clock: clock ?? clockOf(config),
    verifyTimeoutMs: 2_500,
    reach: { socketMode: Boolean(config.slack.appToken), platformUrl: config.platformUrl },
    tracing,
    close: () => d.driversCache.close(),
  };
}
