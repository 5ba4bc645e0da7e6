import { Queue } from "bullmq";
import type { Logger } from "../log.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { InteractiveExecutor, InteractiveJob } from "./types.ts";

/** Default name of the interactive queue; tests use their own. */
export const INTERACTIVE_QUEUE = "interactive";

/**
 * Finished jobs are only history; failed ones (Redis trouble while claiming) are kept a day. The
 * handler answers every error itself, so a job fails only when it could not run at all.
 */
export const INTERACTIVE_KEEP = {
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 24 * 3_600, count: 1_000 },
};

/** Options of createQueueExecutor. Defaults in brackets. */
export interface QueueExecutorOptions {
  /** The web process's fail-fast connection. */
  connection: RedisClient;
  /** BullMQ prefix (QUEUE_PREFIX), shared with the workers. */
  prefix: string;
  name?: string;
  logger: Logger;
  /** How long one reading of the backlog is reused [100 ms]: one Redis call per burst, not per request. */
  depthCacheMs?: number;
}

/**
 * The web side of the interactive queue: a queue of its own, so digests people wait for never
 * stand behind scheduled deliveries, read by the worker processes (see consumer.ts).
 */
export function createQueueExecutor(o: QueueExecutorOptions): InteractiveExecutor & { queue: Queue } {
  const queue = new Queue<InteractiveJob, void, string>(o.name ?? INTERACTIVE_QUEUE, {
    connection: o.connection,
    prefix: o.prefix,
  });
  queue.on("error", (err) =>
    o.logger.warn({ err: { message: err.message }, queue: queue.name }, "interactive queue error"),
  );
  const cacheMs = o.depthCacheMs ?? 100;
  let reading: { at: number; value: Promise<number> } | undefined;
  return {
    queue,
    async submit(job) {
      // A person's own words (a question, a modal's fields) are Slack's to keep, not ours: their
      // jobs leave Redis as soon as they end. The request's claim still stops a second answer.
      const words = job.route.kind === "message" || job.route.kind === "view";
      await queue.add(job.route.kind, job, {
        jobId: job.id,
        // Only a run that could not start (Redis away) fails; the claim keeps a retry from answering twice.
        attempts: 3,
        backoff: { type: "fixed", delay: 500 },
        ...(words ? { removeOnComplete: true, removeOnFail: true } : INTERACTIVE_KEEP),
      });
    },
    depth() {
      const now = Date.now();
      if (!reading || now - reading.at >= cacheMs) {
        const value = queue.getWaitingCount();
        reading = { at: now, value };
        value.catch(() => {
          if (reading?.value === value) reading = undefined;
        });
      }
      return reading.value;
    },
    close: () => queue.close(),
  };
}
