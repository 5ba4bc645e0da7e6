import type { Logger } from "../log.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import { createSubscriptionService, type SubscriptionService } from "../subscriptions/service.ts";
import { createSlotLayout } from "../subscriptions/slot-layout.ts";
import { createSlotRegistry, type SlotRegistry } from "../subscriptions/slot-registry.ts";
import { createSubscriptionStore, type SubscriptionStore } from "../subscriptions/store.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import { createDeliveryQueue, DEFAULT_POLICY, type DeliveryPolicy, type DeliveryQueue } from "./queue.ts";
import { createSchedulerSync } from "./scheduler.ts";

/** Options of createSubscriptionRuntime. */
export interface SubscriptionRuntimeOptions {
  /** Web processes pass their fail-fast connection; the worker its own (maxRetriesPerRequest: null). */
  redis: RedisClient;
  /** BullMQ prefix (config.queuePrefix). */
  queuePrefix: string;
  logger: Logger;
  /** Store key prefix [insights]. */
  prefix?: string;
  queueName?: string;
  clock?: () => Date;
  policy?: Partial<DeliveryPolicy>;
  limits?: Partial<SubscriptionLimits>;
  maxPerWorkspace?: number;
}

/** The built service and its parts. */
export interface SubscriptionRuntime {
  subscriptions: SubscriptionService;
  store: SubscriptionStore;
  queue: DeliveryQueue;
  scheduler: SchedulerSync;
  registry: SlotRegistry;
  /** Closes the queue (not the shared Redis connection). */
  close(): Promise<void>;
}

/**
 * The subscription service with its store, queue and scheduler sync, as both the web process (the
 * Slack layer's commands and App Home) and the worker build it.
 *
 * @example
 * const { subscriptions } = createSubscriptionRuntime({ redis, queuePrefix: config.queuePrefix, logger });
 * const { subscription, nextRuns } = await subscriptions.create(ref, { channelId, schedule: { kind: "daily" }, tz }, userId);
 */
export function createSubscriptionRuntime(o: SubscriptionRuntimeOptions): SubscriptionRuntime {
  const queue = createDeliveryQueue({
    connection: o.redis,
    prefix: o.queuePrefix,
    name: o.queueName,
    logger: o.logger,
  });
  const keys = createKeyScheme({ prefix: o.prefix });
  const store = createSubscriptionStore({ redis: o.redis, keys });
  const registry = createSlotRegistry({ redis: o.redis, keys });
  const scheduler = createSchedulerSync({ queue, policy: { ...DEFAULT_POLICY, ...o.policy } });
  const subscriptions = createSubscriptionService({
    store,
    scheduler,
    registry,
    layout: createSlotLayout({ redis: o.redis, keys }),
    logger: o.logger,
    clock: o.clock,
    limits: o.limits,
    maxPerWorkspace: o.maxPerWorkspace,
  });
  return { subscriptions, store, queue, scheduler, registry, close: () => queue.close() };
}
