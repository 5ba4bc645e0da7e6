import { Worker } from "node:worker_threads";
import type { Logger } from "../log.ts";
import { type FromThread, THREAD_BOOTSTRAP, type ThreadBoot, type ToThread } from "./thread-protocol.ts";
import type { InteractiveExecutor, InteractiveJob, InteractiveOutcome } from "./types.ts";

/** Options of createThreadPool. Defaults in brackets. */
export interface ThreadPoolOptions {
  /** The module every thread runs (it calls serveThreadJobs). */
  entry: URL;
  /** Given to every thread; plain data only (it is copied). */
  data: unknown;
  size: number;
  /** Jobs one thread computes at once. */
  concurrency: number;
  logger: Logger;
  /** A thread's log line (JSON), for this process's log stream. */
  onLog?(line: string): void;
  /** How long close() waits for queued and running jobs, and then for each thread to stop [10 s]. */
  drainMs?: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  running: Map<string, InteractiveJob>;
}

// Only ever the bound of a wait for something else: left running after that ended, a ref'd timer
// kept a stopped process alive for the rest of it (5 s after every SIGTERM of `start`).
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/** tsx's loader, when this module runs as TypeScript source (the threads need it to load theirs). */
function tsxLoader(entry: URL): string | undefined {
  if (!entry.pathname.endsWith(".ts")) return undefined;
  return import.meta.resolve("tsx/esm/api");
}

/**
 * Digest work in worker threads, for a single-process install: the event loop that acks Slack's
 * requests only hands jobs over and never computes a digest. Jobs wait here (the backlog) until a
 * thread has a free slot; a thread that dies has its jobs handed to its replacement (each
 * request's claim keeps that from answering twice).
 */
export function createThreadPool(o: ThreadPoolOptions): InteractiveExecutor & {
  threads(): number;
  /** Threads that have loaded their module and take jobs. */
  readyThreads(): number;
  /** Resolves once every thread has loaded its module and can take jobs (or after `ms`, whichever first). */
  ready(ms?: number): Promise<void>;
  /** Each ready thread's metrics (`getMetricsAsJSON()`), skipping one that does not answer within a second. */
  metrics(): Promise<unknown[][]>;
  /**
   * Runs the job in a thread and resolves with how it ended (a stream consumer acknowledges its entry
   * then). Rejects when the run threw (with its error's message and code), when the pool closes
   * before the job ran, or drops it after two threads died on it: the caller leaves it for another
   * process, or a later run, to take over.
   */
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
  /** Stops every thread now, without waiting for what runs (a stop past its time); run()'s callers get an error. */
  terminate(): Promise<void>;
} {
  const waiting: InteractiveJob[] = [];
  const slots = new Set<Slot>();
  const boot: ThreadBoot = {
    entry: o.entry.href,
    tsx: tsxLoader(o.entry),
    concurrency: o.concurrency,
    data: o.data,
  };
  let closing = false;
  let idle: (() => void) | undefined;
  let seq = 0;
  const crashes = new Map<string, number>();
  const asked = new Map<number, (metrics: unknown[]) => void>();
  const readyWaiters = new Set<() => void>();
  // Callers of run() waiting for their job's end, by job id.
  const awaiting = new Map<string, { resolve(o: InteractiveOutcome): void; reject(e: Error): void }>();
  const allReady = () => slots.size > 0 && [...slots].every((s) => s.ready);

  const busy = () => waiting.length > 0 || [...slots].some((s) => s.running.size > 0);

  function dispatch() {
    while (waiting.length > 0) {
      let best: Slot | undefined;
      for (const s of slots)
        if (s.ready && s.running.size < o.concurrency && (!best || s.running.size < best.running.size))
          best = s;
      if (!best) return;
      const job = waiting.shift() as InteractiveJob;
      best.running.set(job.id, job);
      best.worker.postMessage({ type: "job", job } satisfies ToThread);
    }
  }

  function spawn(delayMs = 0) {
    const start = () => {
      if (closing) return;
      const worker = new Worker(THREAD_BOOTSTRAP, { eval: true, workerData: boot });
      const slot: Slot = { worker, ready: false, running: new Map() };
      slots.add(slot);
      worker.on("message", (m: FromThread) => {
        if (m.type === "ready") {
          slot.ready = true;
          if (allReady()) for (const w of readyWaiters) w();
        } else if (m.type === "log") o.onLog?.(m.line);
        else if (m.type === "metrics") {
          asked.get(m.seq)?.(m.metrics);
          asked.delete(m.seq);
        } else if (m.type === "done") {
          slot.running.delete(m.outcome.id);
          const waiter = awaiting.get(m.outcome.id);
          if (m.failed !== undefined)
            waiter?.reject(Object.assign(new Error(m.failed), { code: m.outcome.outcome }));
          else waiter?.resolve(m.outcome);
          awaiting.delete(m.outcome.id);
          if (!busy()) idle?.();
        }
        dispatch();
      });
      worker.on("error", (err) => o.logger.error({ err }, "interactive thread failed"));
      worker.on("exit", (code) => {
        slots.delete(slot);
        if (closing) return;
        // Its jobs go first to whichever thread is next free; their claims say what was answered.
        // A job that was in two dying threads is dropped rather than allowed to kill them all.
        const again = [...slot.running.values()].filter((job) => {
          const n = (crashes.get(job.id) ?? 0) + 1;
          crashes.set(job.id, n);
          if (n < 2) return true;
          o.logger.error({ requestId: job.id }, "request dropped: it was running in two threads that died");
          awaiting.get(job.id)?.reject(new Error("the request was running in two threads that died"));
          awaiting.delete(job.id);
          return false;
        });
        if (crashes.size > 10_000) crashes.clear();
        waiting.unshift(...again);
        o.logger.error({ code, jobs: slot.running.size }, "interactive thread exited; starting another");
        spawn(slot.ready ? 0 : 1_000);
        dispatch();
      });
    };
    if (delayMs > 0) setTimeout(start, delayMs).unref();
    else start();
  }

  for (let i = 0; i < Math.max(1, o.size); i++) spawn();

  return {
    threads: () => slots.size,
    readyThreads: () => [...slots].filter((s) => s.ready).length,
    ready(ms = 60_000) {
      if (allReady()) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          readyWaiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        timer.unref();
        readyWaiters.add(done);
      });
    },
    metrics() {
      const ready = [...slots].filter((s) => s.ready);
      return Promise.all(
        ready.map(
          (s) =>
            new Promise<unknown[]>((resolve) => {
              const n = ++seq;
              const timer = setTimeout(() => {
                asked.delete(n);
                resolve([]);
              }, 1_000);
              asked.set(n, (m) => {
                clearTimeout(timer);
                resolve(m);
              });
              s.worker.postMessage({ type: "metrics", seq: n } satisfies ToThread);
            }),
        ),
      );
    },
    async submit(job) {
      if (closing) throw new Error("the digest thread pool is closed");
      waiting.push(job);
      dispatch();
    },
    run(job) {
      if (closing || awaiting.has(job.id))
        return Promise.reject(
          new Error(closing ? "the digest thread pool is closed" : "the request is running"),
        );
      return new Promise<InteractiveOutcome>((resolve, reject) => {
        awaiting.set(job.id, { resolve, reject });
        waiting.push(job);
        dispatch();
      });
    },
    async depth() {
      return waiting.length;
    },
    waiting: () => {
      const now = Date.now();
      const oldest = waiting[0]?.receivedAt;
      return {
        count: waiting.length,
        waitedMs: oldest === undefined ? 0 : Math.max(0, now - oldest),
        atMs: now,
      };
    },
    async terminate() {
      closing = true;
      waiting.length = 0;
      for (const a of awaiting.values()) a.reject(new Error("the digest thread pool was stopped"));
      awaiting.clear();
      await Promise.all([...slots].map((s) => s.worker.terminate()));
    },
    async close() {
      if (busy()) {
        const drained = new Promise<void>((resolve) => {
          idle = resolve;
        });
        await Promise.race([drained, sleep(o.drainMs ?? 10_000)]);
      }
      closing = true;
      await Promise.all(
        [...slots].map(async (s) => {
          const exited = new Promise<void>((resolve) => s.worker.once("exit", () => resolve()));
          s.worker.postMessage({ type: "close" } satisfies ToThread);
          // A thread that reads a stream itself finishes what it read before it exits.
          await Promise.race([exited, sleep(o.drainMs ?? 10_000)]);
          await s.worker.terminate();
        }),
      );
      // What never ended goes back to its caller unfinished (a stream entry stays pending for another worker).
      waiting.length = 0;
      for (const a of awaiting.values())
        a.reject(new Error("the digest thread pool closed before the request ended"));
      awaiting.clear();
    },
  };
}
