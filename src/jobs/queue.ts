import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.ts";

/** Default name of the delivery queue; tests use their own. */
export const DELIVERY_QUEUE = "deliveries";

/**
 * Job names: what produced the job. The period of a scheduled job comes from its fire time; a
 * `notice` job only tells a paused subscription's owner why (after pauseChannel).
 */
export const JOB_NAME = { scheduled: "digest", catchUp: "catchup", test: "send", notice: "notice" } as const;
/** One of {@link JOB_NAME}. */
export type JobName = (typeof JOB_NAME)[keyof typeof JOB_NAME];

/**
 * Job data: ids only, never a token, key or message text. `sub` is the subscription's scheduler id
 * (`<enterprise|->.<team|->.<subId>`, see subscriptions/ids.ts): one short string keeps BullMQ's
 * scheduler hash in Redis' compact encoding (values ≤ 64 bytes), which halves its memory.
 */
export interface DeliveryJobData {
  sub: string;
  /** Set for catch-up and test sends; scheduled jobs take theirs from the scheduler. */
  period?: string;
  /** Notice jobs: the pause reason to tell the owner about. */
  reason?: string;
}

/** Retry policy of delivery jobs. */
export interface DeliveryPolicy {
  /** Tries per delivery, first included [5]. */
  attempts: number;
  /** First backoff; doubles each retry [30 s]. */
  backoffMs: number;
}

/** 5 tries over about 7.5 minutes (30 s, 1, 2, 4 min): long enough for a brief outage to pass. */
export const DEFAULT_POLICY: DeliveryPolicy = { attempts: 5, backoffMs: 30_000 };

// Names typed as string: BullMQ types scheduler ids with the job-name type too.
export type DeliveryQueue = Queue<DeliveryJobData, unknown, string>;

/** Options of createDeliveryQueue. */
export interface QueueOptions {
  /** A producer connection: web processes pass one that fails fast (maxRetriesPerRequest > 0). */
  connection: Redis;
  /** BullMQ key prefix, e.g. "{insights}" (a hash tag keeps a queue in one Cluster slot). */
  prefix: string;
  name?: string;
  logger: Logger;
}

/** The delivery queue, with the 'error' listener every BullMQ client needs. */
export function createDeliveryQueue(o: QueueOptions): DeliveryQueue {
  const queue: DeliveryQueue = new Queue(o.name ?? DELIVERY_QUEUE, {
    connection: o.connection,
    prefix: o.prefix,
  });
  queue.on("error", (err) =>
    o.logger.warn({ err: { message: err.message }, queue: queue.name }, "delivery queue error"),
  );
  return queue;
}

/**
 * BullMQ job options of every delivery job. Only what must travel with the job: retention is the
 * worker's setting ({@link KEEP_JOBS}), so it is not copied into every scheduler and job hash.
 */
export function deliveryJobOptions(policy: DeliveryPolicy) {
  return { attempts: policy.attempts, backoff: { type: "exponential" as const, delay: policy.backoffMs } };
}

/** Finished jobs are only history: a bounded tail keeps Redis small. */
export const KEEP_JOBS = {
  removeOnComplete: { age: 24 * 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};
