import type { AnalyticsClient } from "../analytics/client.ts";
import type { DigestService } from "../digests/digest-service.ts";
import type { InsightsCache } from "../digests/insights-cache.ts";
import type { Offload } from "../interactive/types.ts";
import type { AlertStateStore } from "../jobs/alert-state.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { WorkspaceSettingsStore } from "../store/workspace-settings.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { Tracing } from "../tracing.ts";
import type { PermissionPolicy } from "./permissions.ts";
import type { UserDirectory } from "./users.ts";

/**
 * Everything listeners need, built once by the composition root and handed down; no listener
 * creates a client of its own.
 */
export interface AppServices {
  logger: Logger;
  redis: RedisClient;
  metrics: Metrics;
  keys: KeyScheme;
  apiKeys: ApiKeyStore;
  users: UserDirectory;
  digests: DigestService;
  /** The workspace's own settings (the chart one), as `/insights settings` reads and changes them. */
  settings?: WorkspaceSettingsStore;
  insightsCache: InsightsCache;
  analytics: Pick<AnalyticsClient, "verifyKey" | "endpoint">;
  /** Scheduled digests: records and their BullMQ schedulers (the web process's producer side). */
  subscriptions: SubscriptionService;
  /** Alert episodes: the scripts behind the buttons on an alert's message, and its kept message. */
  alerts: AlertStateStore;
  policy: PermissionPolicy;
  /** Who installed the app in a workspace (OAuth installs record it); undefined when unknown. */
  installerOf(ref: WorkspaceRef): Promise<string | undefined>;
  clock: () => Date;
  /**
   * Where entries that hand their work off (all but those marked `inline`) run: set in the process that receives Slack's requests, absent
   * where the work itself runs (then those entries run in place).
   */
  offload?: Offload;
  /** How long the connect modal waits for the service before telling the admin to retry (Slack allows 3 s). */
  verifyTimeoutMs: number;
  /** How Slack reaches this deployment: Socket Mode or HTTP, and the platform whose links unfurl. */
  reach: ReachSettings;
  /** Traces of handed-off requests (the ack here, the answer where it runs) [none]. */
  tracing?: Tracing;
}

export interface ReachSettings {
  /** Slack delivers over a WebSocket the app opens (SLACK_APP_TOKEN), not to a public URL. */
  socketMode: boolean;
  /** The platform's web app (PLATFORM_URL or ANALYTICS_APP_URL): links to its host unfurl. */
  platformUrl?: string;
}
