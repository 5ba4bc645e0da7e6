import { parentPort, workerData } from "node:worker_threads";
import type { DestinationStream } from "pino";
import type { FromThread, ThreadBoot, ToThread } from "./thread-protocol.ts";
import type { InteractiveJob, InteractiveOutcome } from "./types.ts";

/** What the pool gave this thread (see pool.ts). */
export function threadBoot(): ThreadBoot {
  return workerData as ThreadBoot;
}

const send = (m: FromThread) => parentPort?.postMessage(m);

/** A log destination that hands each line to the main thread, which writes it to the process's stream. */
export function threadLogDestination(): DestinationStream {
  return {
    write(line: string) {
      send({ type: "log", line: line.endsWith("\n") ? line.slice(0, -1) : line });
    },
  };
}

/**
 * The thread's side of the pool: runs each job it is given (the pool never gives more than the
 * thread's concurrency) and reports how it ended, answers for its metrics, and on `close` finishes
 * what it holds and stops.
 */
export function serveThreadJobs(o: {
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
  /** The thread's metrics, for the process's /metrics (summed with the other threads'). */
  metrics(): Promise<unknown[]>;
  close(): Promise<void>;
}): void {
  const port = parentPort;
  if (!port) throw new Error("serveThreadJobs runs in a worker thread");
  const running = new Set<Promise<void>>();
  port.on("message", async (m: ToThread) => {
    if (m.type === "job") {
      const job = m.job;
      const p = o
        .run(job)
        .then(
          (outcome) => send({ type: "done", outcome }),
          (err: unknown) =>
            send({
              type: "done",
              outcome: {
                id: job.id,
                kind: job.route.kind,
                name: job.route.kind === "command" ? job.route.name : job.route.id,
                outcome: String((err as { code?: unknown })?.code ?? "error"),
              },
              failed: String((err as Error)?.message ?? err),
            }),
        )
        .finally(() => running.delete(p));
      running.add(p);
      return;
    }
    if (m.type === "metrics") {
      send({ type: "metrics", seq: m.seq, metrics: await o.metrics().catch(() => []) });
      return;
    }
    await Promise.allSettled([...running]);
    await o.close().catch(() => undefined);
    send({ type: "closed" });
    port.close();
  });
  send({ type: "ready" });
}
