import { createAnalyticsClient } from "../analytics/client.ts";
import type { Config, KeyringEntry } from "../config.ts";
import { createDigestService } from "../digests/digest-service.ts";
import { createInsightsSource } from "../digests/insights-cache.ts";
import type { Logger } from "../log.ts";
import { createMetrics, instrumentAnalytics, type Metrics } from "../metrics.ts";
import type { SlackDeps } from "../slack/services.ts";
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
}: CoreOptions): SlackDeps {
  const keys = createKeyScheme({ prefix });
  const analytics = instrumentAnalytics(
    createAnalyticsClient({
      graphqlUrl: config.analytics.graphqlUrl,
      appUrl: config.analytics.appUrl,
      timeoutMs: config.analytics.timeoutMs,
      // A person is waiting on the web side: answer within 10 s, retries included. Workers retry via BullMQ.
      retry: config.mode === "worker" ? undefined : { maxTotalMs: 9_000 },
      logger,
    }),
    metrics,
  );
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  const source = createInsightsSource({ redis, keys, client: analytics, logger });
  return {
    logger,
    redis,
    keys,
    apiKeys,
    users: createUserDirectory({ redis, keys }),
    source,
    digests: createDigestService({ apiKeys, source, platformUrl: config.platformUrl }),
    analytics,
    subscriptions,
    metrics,
    policy: { adminUserIds: config.adminUserIds, digestAccess: config.digestAccess },
    installerOf: async () => undefined,
    clock,
    verifyTimeoutMs: 2_500,
  };
}
