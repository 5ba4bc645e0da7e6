import { Worker } from "bullmq";
import type { Logger } from "../log.ts";
import type { RedisClient } from "../store/redis-client.ts";
import type { InteractiveJob, InteractiveOutcome } from "./types.ts";

/** Options of drainLegacyQueue. Defaults in brackets. */
export interface LegacyDrainOptions {
  connection: RedisClient;
  prefix: string;
  /** The previous version's queue name [interactive]. */
  name?: string;
  concurrency: number;
  /** How long after start the queue is still read [10 min]: longer than any rolling deploy. */
  forMs?: number;
  logger: Logger;
  /** The previous version's job data as a request of this one; undefined when it is not one. */
  convert(data: unknown): InteractiveJob | undefined;
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
}

/**
 * Before the hand-off was a Redis stream, web processes queued requests with BullMQ. During an
 * upgrade a previous version's web may still queue a few there: for a while after start, this
 * reads that queue too and runs them like any other request (their claims keep the answer single).
 */
export function drainLegacyQueue(o: LegacyDrainOptions): {
  close(): Promise<void>;
  disconnect(): Promise<void>;
} {
  const worker = new Worker<unknown, void, string>(
    o.name ?? "interactive",
    async (job) => {
      const request = o.convert(job.data);
      if (!request) {
        o.logger.warn({ jobId: job.id }, "previous version's interactive job not understood; dropped");
        return;
      }
      await o.run(request);
    },
    {
      connection: o.connection,
      prefix: o.prefix,
      concurrency: o.concurrency,
      removeOnComplete: { count: 0 },
      removeOnFail: { age: 24 * 3_600, count: 1_000 },
    },
  );
  worker.on("error", (err) =>
    o.logger.warn({ err: { message: err.message } }, "legacy interactive queue error"),
  );
  // A run job is removed; one that failed for the last time is kept a day for diagnosis, without its
  // response_url (whoever holds one can post as the app to that person).
  worker.on("failed", (job) => {
    if (!job || job.attemptsMade < (job.opts.attempts ?? 1)) return;
    void job
      .updateData(withoutResponseUrl(job.data))
      .catch((err: unknown) =>
        o.logger.warn(
          { err: { message: (err as Error)?.message } },
          "could not drop a failed job's response_url",
        ),
      );
  });
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= worker.close();
    return closed;
  };
  setTimeout(() => void close(), o.forMs ?? 10 * 60_000).unref();
  return { close, disconnect: () => worker.disconnect() };
}

/** A previous version's job data without the response_url(s) its payload carried. */
export function withoutResponseUrl(data: unknown): unknown {
  const d = data as { body?: unknown } | null;
  if (!d || typeof d !== "object" || !d.body || typeof d.body !== "object") return data;
  const { response_url: _url, response_urls: _urls, ...body } = d.body as Record<string, unknown>;
  return { ...d, body };
}
