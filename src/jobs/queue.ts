import { Queue } from "bullmq";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { isCluster, type RedisClient } from "../store/redis-client.ts";

/** Default name of the delivery queue; tests use their own. */
export const DELIVERY_QUEUE = "deliveries";

/**
 * Job names: what produced the job. `slot` is a time slot firing (its scheduler's job): it fans out
 * into one `digest` job per member, which carries the slot's fire time as its period. Older versions
 * made `digest` jobs straight from per-subscription schedulers (period from the job's fire time). A
 * `notice` job only tells a paused subscription's owner why (after pauseChannel).
 */
export const JOB_NAME = {
  slot: "slot",
  scheduled: "digest",
  catchUp: "catchup",
  test: "send",
  notice: "notice",
} as const;
/** One of {@link JOB_NAME}. */
export type JobName = (typeof JOB_NAME)[keyof typeof JOB_NAME];

/**
 * Job data: ids only, never a token, key or message text. `sub` is the subscription's scheduler id
 * (`<enterprise|->.<team|->.<subId>`, see subscriptions/ids.ts): one short string keeps BullMQ's
 * scheduler hash in Redis' compact encoding (values ≤ 64 bytes), which halves its memory.
 */
export interface DeliveryJobData {
  /** `<enterprise|->.<team|->.<subId>`; absent on slot jobs. */
  sub?: string;
  /** The delivery period; jobs of older per-subscription schedulers take theirs from their fire time. */
  period?: string;
  /** The channel at fan-out time, for pacing before the record is read (a moved channel just paces the old one). */
  ch?: string;
  /** Notice jobs: the pause reason to tell the owner about. */
  reason?: string;
  /** Slot jobs: the slot id. */
  slot?: string;
  /**
   * Slot jobs of a gated slot: the gate its fires must pass (a month day's text, month-day.ts), the
   * zone whose local date it is checked on, and the slot's pattern (to find a run day a late fire
   * jumped over).
   */
  gate?: string;
  tz?: string;
  pattern?: string;
  /** Takeover checks paging through channel history across delays: where to go on. */
  cursor?: string;
  /** How many times this delivery was added again after BullMQ failed it for stalling (stalled.ts). */
  stalls?: number;
  /** W3C traceparent of the fan-out that added it, when tracing is on: its span joins that trace. */
  tp?: string;
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
  connection: RedisClient;
  /** BullMQ key prefix, e.g. "{insights}" (a hash tag keeps a queue in one Cluster slot). */
  prefix: string;
  name?: string;
  logger: Logger;
}

/** The delivery queue, with the 'error' listener every BullMQ client needs. */
export function createDeliveryQueue(o: QueueOptions): DeliveryQueue {
  if (isCluster(o.connection) && !/\{[^}]+\}/.test(o.prefix))
    throw new AppError(
      "config",
      "On a Redis Cluster the queue prefix needs a {hash tag} (QUEUE_PREFIX, default {insights}): BullMQ keeps a queue in one slot.",
    );
  const queue: DeliveryQueue = new Queue(o.name ?? DELIVERY_QUEUE, {
    connection: o.connection,
    prefix: o.prefix,
    streams: { events: { maxLen: EVENTS_MAX_LEN } },
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

/**
 * Finished jobs: a delivery's outcome is on its subscription record and claim, so completed jobs are
 * removed at once; failed ones stay a week (at most 1,000) for an operator to look at.
 */
export const KEEP_JOBS = {
  removeOnComplete: { count: 0 },
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};

/** The queue's event stream is an activity log for dashboards: a short tail is enough. */
export const EVENTS_MAX_LEN = 1_000;
