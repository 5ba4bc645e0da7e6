import { pino } from "pino";
import type { Config } from "../config.ts";
import { createThreadPool } from "../interactive/pool.ts";
import type { DeliveryPolicy } from "../jobs/queue.ts";
import type { Logger } from "../log.ts";
import type { SubscriptionLimits } from "../subscriptions/validate.ts";

/** What every digest thread is started with (plain data: it is copied into the thread). */
export interface ThreadData {
  config: Config;
  redisUrl: string;
  logLevel: string;
  prefix?: string;
  subscriptions: {
    queueName?: string;
    policy?: Partial<DeliveryPolicy>;
    limits?: Partial<SubscriptionLimits>;
  };
  claimLeaseMs?: number;
  insightsLockMs?: number;
  /**
   * The nice value each thread gives itself [10, never lowering its own: in a single-process install
   * the event loop that acks Slack comes first]. A worker process passes its own WORKER_NICE, which a
   * thread also takes back where it inherited a higher one (a replacement started by the deliveries'
   * thread) and the process may: there the threads' work is what people wait on.
   */
  nice?: number;
  /** The service its spans are exported as [insights-digest-web]. */
  serviceName?: string;
  /**
   * A worker process's threads read the web's hand-off stream themselves (each a consumer of its
   * own), instead of being handed jobs [absent: jobs come from the pool]. `name`: the stream's name
   * [interactive]; `leaseMs`: the consumer's lease [10 s].
   */
  stream?: { name?: string; leaseMs?: number };
}

/** Options of startInteractivePool. */
export interface InteractivePoolOptions {
  config: Config;
  redisUrl: string;
  logger: Logger;
  prefix?: string;
  subscriptions?: ThreadData["subscriptions"];
  claimLeaseMs?: number;
  insightsLockMs?: number;
  /** See ThreadData.nice [10]. */
  nice?: number;
  serviceName?: string;
  /** See ThreadData.stream [absent]. */
  stream?: ThreadData["stream"];
  /** Threads [config.interactive.threads]. */
  size?: number;
  /** The module every thread runs [interactive-thread beside this file, of the same build]. */
  threadModule?: URL;
}

/** Writes a thread's finished JSON line to this process's log stream as it is (same format, same place). */
function lineWriter(logger: Logger): (line: string) => void {
  const stream = (logger as unknown as Record<symbol, { write?: (s: string) => void }>)[
    pino.symbols.streamSym
  ];
  if (stream?.write) return (line) => stream.write?.(`${line}\n`);
  return (line) => logger.info({ thread: line }, "digest thread log line");
}

/**
 * The digest threads of a single-process install (`start`, the demo, the test stack): the main
 * event loop keeps Slack's acks, `INTERACTIVE_THREADS` threads compute the digests. A worker process
 * starts them too (`INTERACTIVE_WORKER_THREADS`), so the requests it reads run beside its deliveries
 * on an event loop of their own instead of between their steps.
 */
export function startInteractivePool(o: InteractivePoolOptions) {
  const ext = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
  const data: ThreadData = {
    config: o.config,
    redisUrl: o.redisUrl,
    logLevel: o.logger.level,
    prefix: o.prefix,
    subscriptions: o.subscriptions ?? {},
    claimLeaseMs: o.claimLeaseMs,
    insightsLockMs: o.insightsLockMs,
    nice: o.nice,
    serviceName: o.serviceName,
    ...(o.stream ? { stream: o.stream } : {}),
  };
  return createThreadPool({
    entry: o.threadModule ?? new URL(`./interactive-thread${ext}`, import.meta.url),
    data,
    size: o.size ?? o.config.interactive.threads,
    concurrency: o.config.interactive.concurrency,
    logger: o.logger,
    onLog: lineWriter(o.logger),
  });
}
