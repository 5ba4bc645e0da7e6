import { createAnalyticsClient } from "../analytics/client.ts";
import type { Config, KeyringEntry } from "../config.ts";
import { createDigestService } from "../digests/digest-service.ts";
import { createFilterListsCache } from "../digests/filter-lists.ts";
import { createInsightsCache } from "../digests/insights-cache.ts";
import type { Logger } from "../log.ts";
import { createMetrics, instrumentAnalytics, type Metrics } from "../metrics.ts";
import type { AppServices } from "../slack/services.ts";
import { createUserDirectory } from "../slack/users.ts";
import { createApiKeyStore } from "../store/api-keys.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";

export interface CoreOptions {
  config: Config;
  logger: Logger;
  redis: RedisClient;
  keyring: KeyringEntry[];
  /** Redis key prefix (tests use one per test file). */
  prefix?: string;
  clock?: () => Date;
  /** Built by the entry point with the queue it owns (see createSubscriptionRuntime). */
  subscriptions: SubscriptionService;
  metrics?: Metrics;
  /**
   * Someone waits on this process's digests [true unless config.mode is "worker"]: the analytics
   * client gives up within 10 s, retries included. Scheduled deliveries retry through BullMQ instead.
   */
  interactive?: boolean;
  /** How long one process may hold an insights query's shared-fetch lock [30 s; see insights-cache.ts]. */
  insightsLockMs?: number;
}

/**
 * The composition root's shared part: builds every service once from the config and hands them to
 * the web and worker entry points. Nothing below this creates clients of its own.
 */
export function composeCore({
  config,
  logger,
  redis,
  keyring,
  prefix,
  clock = () => new Date(),
  subscriptions,
  metrics = createMetrics({ defaultMetrics: false }),
  interactive = config.mode !== "worker",
  insightsLockMs,
}: CoreOptions): AppServices {
  const keys = createKeyScheme({ prefix });
  const analytics = instrumentAnalytics(
    createAnalyticsClient({
      graphqlUrl: config.analytics.graphqlUrl,
      appUrl: config.analytics.appUrl,
      timeoutMs: config.analytics.timeoutMs,
      // A person is waiting on the web side: answer within 10 s, retries included. Workers retry via BullMQ.
      retry: interactive ? { maxTotalMs: 9_000 } : undefined,
      logger,
    }),
    metrics,
  );
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  const insightsCache = createInsightsCache({
    redis,
    keys,
    client: analytics,
    logger,
    lockMs: insightsLockMs,
  });
  return {
    logger,
    redis,
    keys,
    apiKeys,
    users: createUserDirectory({ redis, keys }),
    insightsCache,
    digests: createDigestService({
      apiKeys,
      insights: insightsCache,
      platformUrl: config.platformUrl,
      drivers: config.drivers,
      gapRule: config.gapRule,
      logger,
      filterLists: createFilterListsCache({ redis, keys }),
    }),
    analytics,
    subscriptions,
    metrics,
    policy: { adminUserIds: config.adminUserIds, digestAccess: config.digestAccess },
    installerOf: async () => undefined,
    clock,
    verifyTimeoutMs: 2_500,
    reach: { socketMode: Boolean(config.slack.appToken), platformUrl: config.platformUrl },
  };
}
