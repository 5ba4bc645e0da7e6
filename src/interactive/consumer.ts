import { Worker } from "bullmq";
import type { Logger } from "../log.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { INTERACTIVE_KEEP, INTERACTIVE_QUEUE } from "./queue.ts";
import type { InteractiveJob, InteractiveOutcome } from "./types.ts";

/** BullMQ lock settings of the interactive worker. Defaults in brackets. */
export interface InteractiveLocks {
  /** How long a job's lock lasts unless renewed [10 s]; a killed worker's job is picked up after it. */
  lockDuration?: number;
  /** How often stalled jobs are looked for [5 s]. */
  stalledInterval?: number;
  /** Stalls before a job is given up [2]. */
  maxStalledCount?: number;
}

/** The job as kept once finished: the request's payload without its response_url(s). */
export function withoutResponseUrl(data: InteractiveJob): InteractiveJob {
  const { response_url: _url, response_urls: _urls, ...body } = data.body;
  return { ...data, body };
}

/** Options of startInteractiveConsumer. */
export interface InteractiveConsumerOptions {
  /** A worker connection (maxRetriesPerRequest: null). */
  connection: RedisClient;
  prefix: string;
  name?: string;
  concurrency: number;
  locks?: InteractiveLocks;
  logger: Logger;
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
}

/**
 * The worker side of the interactive queue. Locks are short, so a request whose worker died is
 * taken over within seconds; the request's claim keeps the takeover from answering twice.
 */
export function startInteractiveConsumer(o: InteractiveConsumerOptions) {
  const worker = new Worker<InteractiveJob, InteractiveOutcome, string>(
    o.name ?? INTERACTIVE_QUEUE,
    (job) => o.run(job.data),
    {
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      lockDuration: o.locks?.lockDuration ?? 10_000,
      stalledInterval: o.locks?.stalledInterval ?? 5_000,
      maxStalledCount: o.locks?.maxStalledCount ?? 2,
      ...INTERACTIVE_KEEP,
    },
  );
  worker.on("error", (err) => o.logger.warn({ err: { message: err.message } }, "interactive worker error"));
  // A finished job is kept a while for diagnosis; its response_url (a secret: whoever holds it can
  // post as the app to that person) is of no use once answered, so it goes at once.
  const scrub = (job: { data: InteractiveJob; updateData(d: InteractiveJob): Promise<void> }) =>
    job
      .updateData(withoutResponseUrl(job.data))
      .catch((err: unknown) =>
        o.logger.warn(
          { err: { message: (err as Error).message } },
          "could not drop a finished job's response_url",
        ),
      );
  worker.on("completed", (job) => void scrub(job));
  worker.on("failed", (job, err) => {
    o.logger.warn({ jobId: job?.id, err: { message: err.message } }, "interactive job failed");
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) void scrub(job);
  });
  return worker;
}
