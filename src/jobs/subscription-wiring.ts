import type { Logger } from "../log.ts";
import { createKeyScheme } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import { createSubscriptionService, type SubscriptionService } from "../subscriptions/service.ts";
import { createSlotLayout } from "../subscriptions/slot-layout.ts";
import { createSlotRegistry, type SlotRegistry } from "../subscriptions/slot-registry.ts";
import { createSubscriptionStore, type SubscriptionStore } from "../subscriptions/store.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";
import type { DeliveryPolicy } from "./queue.ts";

/** Options of createSubscriptionRuntime and createLazySubscriptionRuntime. */
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

/** The subscription service over `scheduler`, with the store and slot registry it writes. */
export function wireSubscriptions(
  o: SubscriptionRuntimeOptions,
  scheduler: SchedulerSync,
): { subscriptions: SubscriptionService; store: SubscriptionStore; registry: SlotRegistry } {
  const keys = createKeyScheme({ prefix: o.prefix });
  const store = createSubscriptionStore({ redis: o.redis, keys });
  const registry = createSlotRegistry({ redis: o.redis, keys });
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
  return { subscriptions, store, registry };
}

/**
 * The subscription service for a digest thread, whose delivery queue (and BullMQ, a quarter of the
 * modules a thread loads) is opened on the first call that writes a scheduler or enqueues a job.
 * Most threads never do (a digest reads subscriptions, it does not make them), and every process
 * start, deploy and test stack starts threads. This module imports nothing of BullMQ itself.
 */
export function createLazySubscriptionRuntime(o: SubscriptionRuntimeOptions): {
  subscriptions: SubscriptionService;
  /** Closes the queue when one was opened. */
  close(): Promise<void>;
} {
  let opened: Promise<{ scheduler: SchedulerSync; close(): Promise<void> }> | undefined;
  const open = () => {
    opened ??= Promise.all([import("./queue.ts"), import("./scheduler.ts")]).then(([queues, schedulers]) => {
      const queue = queues.createDeliveryQueue({
        connection: o.redis,
        prefix: o.queuePrefix,
        name: o.queueName,
        logger: o.logger,
      });
      const policy = { ...queues.DEFAULT_POLICY, ...o.policy };
      return { scheduler: schedulers.createSchedulerSync({ queue, policy }), close: () => queue.close() };
    });
    return opened.then((q) => q.scheduler);
  };
  const scheduler: SchedulerSync = {
    ensureSlot: async (slot) => (await open()).ensureSlot(slot),
    dropSlot: async (slotId) => (await open()).dropSlot(slotId),
    enqueue: async (ref, subId, channelId, kind, period) =>
      (await open()).enqueue(ref, subId, channelId, kind, period),
    notifyOwner: async (ref, subId, reason) => (await open()).notifyOwner(ref, subId, reason),
    async *schedulers() {
      yield* (await open()).schedulers();
    },
    removeScheduler: async (id) => (await open()).removeScheduler(id),
  };
  const { subscriptions } = wireSubscriptions(o, scheduler);
  return {
    subscriptions,
    async close() {
      // A queue still opening is closed once open; one never opened has nothing to close.
      await (await opened?.catch(() => undefined))?.close();
    },
  };
}
