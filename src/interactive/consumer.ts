import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "../log.ts";
import { isCluster, type RedisClient } from "../store/redis-client.ts";
import { DONE_SCRIPT, handedOffLate, parseEntry, STREAM_GROUP, streamKey } from "./stream.ts";
import type { InteractiveJob, InteractiveOutcome } from "./types.ts";

/** Options of startStreamConsumer. Defaults in brackets. */
export interface StreamConsumerOptions {
  /**
   * A worker connection (maxRetriesPerRequest: null) for the consumer's own commands (acknowledging,
   * refreshing, taking over): the app's, with its command deadline.
   */
  connection: RedisClient;
  /**
   * The connection a duplicate of which does the blocking reads: one without a command deadline
   * (BullMQ's), since a read waits on purpose [connection].
   */
  blocking?: RedisClient;
  /** QUEUE_PREFIX, shared with the web processes. */
  prefix: string;
  /** Stream name [interactive]. */
  name?: string;
  /** Requests this process runs at once. */
  concurrency: number;
  /**
   * How long an entry may go unrefreshed before another worker takes it over [10 s]. A running entry
   * is refreshed every third of it, so only a dead or frozen worker's entries pass it.
   */
  leaseMs?: number;
  /** Deliveries after which an entry is given up as poison (it kept killing its workers) [3]. */
  maxDeliveries?: number;
  /** How long one blocking read waits for new entries [1 s]: also how fast close() is noticed. */
  blockMs?: number;
  logger: Logger;
  run(job: InteractiveJob): Promise<InteractiveOutcome>;
  /**
   * For a run that threw: how long to wait before running the job again here, keeping its entry (a
   * failure that says nothing about the job, such as a write no replica confirmed); undefined leaves
   * the entry pending for a takeover, which counts towards `maxDeliveries` [never again here].
   */
  retryInMs?(err: unknown, job: InteractiveJob): number | undefined;
}

export interface StreamConsumer {
  readonly name: string;
  /** Requests running now. */
  running(): number;
  /** Stops reading, lets the running requests finish (their entries are acknowledged), closes its connection. */
  close(): Promise<void>;
  /** Drops its reading connection without waiting (a stop that ran out of time); its entries stay pending. */
  disconnect(): void;
}

type Entry = [id: string, fields: string[] | null];
type Scripted = RedisClient & {
  interactiveDone(key: string, group: string, id: string, me: string): Promise<number>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The worker side of the hand-off (see stream.ts): reads new entries for its free slots, runs each,
 * acknowledges and deletes it when done; keeps the entries it runs fresh, and takes over entries a
 * dead worker left pending past the lease. At least once: a request whose run did not end (the
 * process died, Redis went away mid-acknowledgement) runs again; its claim keeps the answer single.
 */
export function startStreamConsumer(o: StreamConsumerOptions): StreamConsumer {
  const redis = o.connection;
  const key = streamKey(o.prefix, o.name);
  const me = `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
  const leaseMs = o.leaseMs ?? 10_000;
  const maxDeliveries = o.maxDeliveries ?? 3;
  const blockMs = o.blockMs ?? 1_000;
  const log = o.logger.child({ component: "interactive-consumer", consumer: me });
  // Blocking reads hold their connection; everything else shares the worker's.
  const blocking = o.blocking ?? redis;
  const reader: RedisClient = isCluster(blocking) ? blocking.duplicate() : blocking.duplicate();
  reader.on("error", (err: Error) => log.warn({ err: { message: err.message } }, "interactive reader error"));
  const inFlight = new Map<string, Promise<void>>();
  let closing = false;
  let freed: (() => void) | undefined;

  if (typeof (redis as Scripted).interactiveDone !== "function")
    redis.defineCommand("interactiveDone", { numberOfKeys: 1, lua: DONE_SCRIPT });
  const done = async (id: string) => {
    // One round trip: acknowledged (out of the pending list) and deleted (out of the backlog count).
    await (redis as Scripted).interactiveDone(key, STREAM_GROUP, id, me);
  };

  function start(id: string, fields: string[] | null) {
    if (inFlight.has(id)) return;
    // A pending entry deleted meanwhile comes back without fields: nothing to run, only to acknowledge.
    const job = Array.isArray(fields) ? parseEntry(fields) : "deleted";
    const late = typeof job !== "string" && handedOffLate(id, job);
    if (typeof job === "string" || late) {
      if (late)
        log.warn(
          { entry: id, requestId: job.id },
          "interactive entry dropped: it reached the stream after the web process gave up on it and told the person so",
        );
      else
        log.error({ entry: id, why: job }, "interactive entry dropped: not a request this version can run");
      inFlight.set(
        id,
        done(id).catch(() => undefined),
      );
      inFlight.get(id)?.finally(() => inFlight.delete(id));
      return;
    }
    const attempt = async (): Promise<unknown> => {
      for (;;) {
        try {
          return await o.run(job);
        } catch (err) {
          const wait = closing ? undefined : o.retryInMs?.(err, job);
          if (wait === undefined) throw err;
          log.info(
            { entry: id, code: (err as { code?: unknown })?.code, wait },
            "interactive request runs again shortly",
          );
          await sleep(wait);
        }
      }
    };
    const p = attempt()
      .then(
        () => done(id),
        (err: unknown) => {
          // Left pending: after the lease another worker (or this one) runs it again.
          log.warn(
            { entry: id, err: { message: (err as Error)?.message } },
            "interactive request did not finish; it will be retried",
          );
        },
      )
      .catch((err: unknown) =>
        log.warn(
          { entry: id, err: { message: (err as Error)?.message } },
          "interactive entry not acknowledged",
        ),
      )
      .finally(() => {
        inFlight.delete(id);
        freed?.();
      });
    inFlight.set(id, p);
  }

  /** XREADGROUP's entries: RESP2 answers `[[key, entries]]`, RESP3 a map that arrives as `[key, entries]`. */
  const entriesOf = (reply: unknown): Entry[] => {
    if (!Array.isArray(reply)) return [];
    if (typeof reply[0] === "string" || Buffer.isBuffer(reply[0]))
      return reply.filter((_, i) => i % 2 === 1).flatMap((e) => (Array.isArray(e) ? (e as Entry[]) : []));
    return (reply as [string, Entry[]][]).flatMap(([, entries]) => entries ?? []);
  };

  async function ensureGroup() {
    try {
      // From the start of the stream: requests written before any worker existed are still read.
      await redis.call("XGROUP", "CREATE", key, STREAM_GROUP, "0", "MKSTREAM");
    } catch (err) {
      if (!String((err as Error)?.message).includes("BUSYGROUP")) throw err;
    }
  }

  async function readLoop() {
    // Made before the first read, and again after the stream was deleted (a flush). A failure to make it
    // is retried like a failed read: a reader started while Redis is away must not stop for good.
    let grouped = false;
    while (!closing) {
      const free = o.concurrency - inFlight.size;
      if (free <= 0) {
        await new Promise<void>((resolve) => {
          freed = resolve;
        });
        freed = undefined;
        continue;
      }
      try {
        if (!grouped) {
          await ensureGroup();
          grouped = true;
        }
        const reply = await reader.call(
          "XREADGROUP",
          "GROUP",
          STREAM_GROUP,
          me,
          "COUNT",
          free,
          "BLOCK",
          blockMs,
          "STREAMS",
          key,
          ">",
        );
        for (const [id, fields] of entriesOf(reply)) start(id, fields);
      } catch (err) {
        if (closing) return;
        const message = String((err as Error)?.message);
        if (message.includes("NOGROUP")) grouped = false;
        else log.warn({ err: { message } }, "interactive read failed; retrying");
        await sleep(500);
      }
    }
  }

  /** Our running entries stay fresh (idle time reset), so nobody takes them over while they run. */
  async function refresh() {
    const ids = [...inFlight.keys()];
    if (ids.length > 0) await redis.call("XCLAIM", key, STREAM_GROUP, me, 0, ...ids, "JUSTID");
  }

  /** Entries left pending past the lease by a dead worker: taken over, or dropped after too many tries. */
  async function reclaim() {
    const free = o.concurrency - inFlight.size;
    if (free <= 0) return;
    const pending = (await redis.call("XPENDING", key, STREAM_GROUP, "IDLE", leaseMs, "-", "+", free)) as [
      string,
      string,
      number,
      number,
    ][];
    for (const [id, owner, , deliveries] of pending ?? []) {
      if (inFlight.has(id)) continue;
      if (deliveries >= maxDeliveries) {
        log.error({ entry: id, owner, deliveries }, "interactive request dropped: its runs kept dying");
        await done(id);
        continue;
      }
      const claimed = entriesOf([
        ["", (await redis.call("XCLAIM", key, STREAM_GROUP, me, leaseMs, id)) as Entry[]],
      ]);
      for (const [cid, fields] of claimed.filter((e) => Array.isArray(e))) {
        log.info({ entry: cid, from: owner }, "interactive request taken over from a worker that stopped");
        start(cid, fields);
      }
    }
  }

  const loop = readLoop().catch((err: unknown) => log.error({ err }, "interactive reader stopped"));
  const timer = setInterval(
    () => {
      refresh()
        .then(reclaim)
        .catch((err: unknown) =>
          log.warn({ err: { message: (err as Error)?.message } }, "interactive upkeep failed"),
        );
    },
    Math.max(100, Math.floor(leaseMs / 3)),
  );
  timer.unref();

  return {
    name: me,
    running: () => inFlight.size,
    disconnect() {
      closing = true;
      clearInterval(timer);
      reader.disconnect();
    },
    async close() {
      closing = true;
      clearInterval(timer);
      freed?.();
      // A blocked read returns within blockMs; disconnecting makes it return now.
      reader.disconnect();
      await loop;
      await Promise.allSettled([...inFlight.values()]);
      // Leave the group only with nothing pending: a deleted consumer's pending entries are lost to the others.
      const mine = (await redis
        .call("XPENDING", key, STREAM_GROUP, "-", "+", 1, me)
        .catch(() => [1])) as unknown[];
      if (mine.length === 0)
        await redis.call("XGROUP", "DELCONSUMER", key, STREAM_GROUP, me).catch(() => undefined);
    },
  };
}
