import { type InteractiveLocks, startInteractiveConsumer } from "../interactive/consumer.ts";
import type { Metrics } from "../metrics.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { createInteractiveRunner, type InteractiveRunnerOptions } from "./interactive.ts";

/** Options of the worker process's interactive part (WorkerOptions.interactive). */
export interface InteractiveWorkerOptions {
  /** Interactive queue name [interactive]; tests use one per stack. */
  queueName?: string;
  /** BullMQ lock settings (see consumer.ts). */
  locks?: InteractiveLocks;
  /** Lease of a request's claim [6 s]. */
  claimLeaseMs?: number;
  /** How long a run may hold an insights query's shared-fetch lock [10 s]. */
  insightsLockMs?: number;
  /** BullMQ's connection for the consumer, when it is not `redis` (the app's, with a deadline). */
  connection?: RedisClient;
}

/**
 * Computes the digests people wait for, next to the delivery worker: a queue of its own read with
 * `INTERACTIVE_CONCURRENCY`, so they never stand behind scheduled deliveries.
 */
export function startInteractiveWorker(
  o: InteractiveRunnerOptions & InteractiveWorkerOptions & { metrics: Metrics },
) {
  const runner = createInteractiveRunner(o);
  const worker = startInteractiveConsumer({
    connection: o.connection ?? o.redis,
    prefix: o.config.queuePrefix,
    name: o.queueName,
    concurrency: o.config.interactive.concurrency,
    locks: o.locks,
    logger: o.logger,
    run: runner.run,
  });
  o.logger.info(
    { queue: worker.name, concurrency: o.config.interactive.concurrency },
    "interactive worker started",
  );
  return { worker, close: () => worker.close() };
}
