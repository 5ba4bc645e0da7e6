import type { AnalyticsClient } from "../analytics/client.ts";
import type { DigestService } from "../digests/digest-service.ts";
import type { InsightsSource } from "../digests/insights-cache.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { PermissionPolicy } from "./permissions.ts";
import type { UserDirectory } from "./users.ts";

/**
 * Everything listeners need, built once by the composition root and handed down; no listener
 * creates a client of its own.
 */
export interface SlackDeps {
  logger: Logger;
  redis: RedisClient;
  metrics: Metrics;
  keys: KeyScheme;
  apiKeys: ApiKeyStore;
  users: UserDirectory;
  digests: DigestService;
  source: InsightsSource;
  analytics: Pick<AnalyticsClient, "verifyKey" | "endpoint">;
  /** Scheduled digests: records and their BullMQ schedulers (the web process's producer side). */
  subscriptions: SubscriptionService;
  policy: PermissionPolicy;
  /** Who installed the app in a workspace (OAuth installs record it); undefined when unknown. */
  installerOf(ref: WorkspaceRef): Promise<string | undefined>;
  clock: () => Date;
  /** How long the connect modal waits for the service before telling the admin to retry (Slack allows 3 s). */
  verifyTimeoutMs: number;
}
