import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { SlotRegistry } from "../subscriptions/slot-registry.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import { createDeliveryQueue, DEFAULT_POLICY, type DeliveryQueue } from "./queue.ts";
import { createSchedulerSync } from "./scheduler.ts";
import { type SubscriptionRuntimeOptions, wireSubscriptions } from "./subscription-wiring.ts";

export type { SubscriptionRuntimeOptions } from "./subscription-wiring.ts";

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
  const scheduler = createSchedulerSync({ queue, policy: { ...DEFAULT_POLICY, ...o.policy } });
  const { subscriptions, store, registry } = wireSubscriptions(o, scheduler);
  return { subscriptions, store, queue, scheduler, registry, close: () => queue.close() };
}
