import { type WriteConfirmer, WriteUnconfirmed } from "../store/confirm-writes.ts";
import { isCluster, type RedisClient } from "../store/redis-client.ts";
import { ADD_SCRIPT, DEPTH_SCRIPT, STREAM_GROUP, streamKey } from "./stream.ts";
import type { BacklogReading, InteractiveExecutor, InteractiveJob } from "./types.ts";

/** Options of createStreamExecutor. Defaults in brackets. */
export interface StreamExecutorOptions {
  /** The web process's fail-fast connection (the writes go on a copy of it: writerOf). */
  connection: RedisClient;
  /** QUEUE_PREFIX, shared with the workers. */
  prefix: string;
  /** Stream name [interactive]; must match the workers'. */
  name?: string;
  /**
   * Entries the stream keeps at most (approximately) [50,000]: a bound on what a deployment with no
   * worker running piles up, far above any backlog the busy note lets form.
   */
  maxLength?: number;
  /**
   * How long a request waits for others to share its write, ms [10]: one script call then carries
   * every request of that window, so a busy web process pays one write and one reply for several
   * (the requests are acknowledged before this; only their answers start up to this much later).
   */
  gatherMs?: number;
  /** Requests in one write at most [100]; a full write goes at once. */
  maxBatch?: number;
  /**
   * A confirmer on the writer's connection (WAIT counts the writes of the connection it is asked on):
   * a write no replica acknowledged fails (retriable), since a failover would lose it, and the
   * request with it [none: written is handed off].
   */
  confirmWith?: (writer: RedisClient) => WriteConfirmer;
}

type Scripted = RedisClient & {
  interactiveAdd(key: string, cap: number, group: string, ...jobs: string[]): Promise<[number, number]>;
  interactiveDepth(key: string, group: string): Promise<[number, number]>;
};

/**
 * The connection the requests are written on: a copy of the web's that never sends a write later
 * than the caller was told about it. Without a connection a write fails at once instead of waiting in
 * ioredis's offline queue, and one without a reply when the connection dropped fails instead of being
 * sent again on the next one: either would land unseen after the web process had told the person the
 * hand-off failed (hand-off.ts writes again itself, within the hand-off's deadline).
 */
function writerOf(redis: RedisClient): RedisClient {
  const copy = isCluster(redis)
    ? redis.duplicate(undefined, {
        enableOfflineQueue: false,
        redisOptions: { ...redis.options.redisOptions, autoResendUnfulfilledCommands: false },
      })
    : redis.duplicate({ enableOfflineQueue: false, autoResendUnfulfilledCommands: false });
  // Its failures reach the caller as rejected writes; the web's own connection reports the outage.
  copy.on("error", () => undefined);
  return copy;
}

/** Defines the stream's scripts on a connection (EVALSHA, loaded once per connection). */
function scripted(redis: RedisClient): Scripted {
  const r = redis as Scripted;
  if (typeof r.interactiveAdd !== "function") {
    redis.defineCommand("interactiveAdd", { numberOfKeys: 1, lua: ADD_SCRIPT });
    redis.defineCommand("interactiveDepth", { numberOfKeys: 1, lua: DEPTH_SCRIPT });
  }
  return r;
}

interface Waiting {
  json: string;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The web side of the hand-off: requests are gathered for a few milliseconds and written with one
 * script call that appends each to the stream and returns the backlog (how many wait, and how long
 * the oldest has), which is remembered for admission control (see stream.ts). No queue library on
 * this path: no job objects, no events stream, one round trip per gathering. `submit` resolves once
 * its request is stored; `close` writes what is still gathered.
 */
export function createStreamExecutor(o: StreamExecutorOptions): InteractiveExecutor & { key: string } {
  const redis = scripted(o.connection);
  const writer = scripted(writerOf(o.connection));
  const confirmer = o.confirmWith?.(writer);
  // A write waits up to two seconds for the writer's connection (just started, or reconnecting), since
  // nothing queues it meanwhile.
  const connected = (): Promise<void> =>
    writer.status === "ready"
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            writer.off("ready", done);
            resolve();
          };
          const timer = setTimeout(done, 2_000);
          writer.once("ready", done);
        });
  const key = streamKey(o.prefix, o.name);
  const cap = o.maxLength ?? 50_000;
  const gatherMs = o.gatherMs ?? 10;
  const maxBatch = Math.max(1, o.maxBatch ?? 100);
  let seen: BacklogReading = { count: 0, waitedMs: 0, atMs: 0 };
  const note = ([count, waitedMs]: [number, number]) => {
    seen = { count: Number(count), waitedMs: Number(waitedMs), atMs: Date.now() };
    return seen.count;
  };
  let gathered: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  const writing = new Set<Promise<void>>();

  const write = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    const batch = gathered;
    gathered = [];
    if (batch.length === 0) return Promise.resolve();
    const done = connected()
      .then(() => writer.interactiveAdd(key, cap, STREAM_GROUP, ...batch.map((w) => w.json)))
      .then(async (reading) => {
        note(reading);
        if (confirmer && !(await confirmer.confirm()))
          throw new WriteUnconfirmed(confirmer.timeoutMs, "the request's hand-off");
      })
      .then(
        () => {
          for (const w of batch) w.resolve();
        },
        (err: unknown) => {
          // Redis did not take it (or did not say): hand-off.ts may write it again.
          const retriable = err instanceof Error ? Object.assign(err, { retriable: true }) : err;
          for (const w of batch) w.reject(retriable);
        },
      )
      .finally(() => writing.delete(done));
    writing.add(done);
    return done;
  };

  return {
    key,
    submit(job: InteractiveJob) {
      const json = JSON.stringify(job);
      return new Promise<void>((resolve, reject) => {
        gathered.push({ json, resolve, reject });
        if (gathered.length >= maxBatch) void write();
        else timer ??= setTimeout(write, gatherMs);
      });
    },
    async depth() {
      return note(await redis.interactiveDepth(key, STREAM_GROUP));
    },
    waiting: () => seen,
    async close() {
      // The web's connection belongs to the composition root; what is gathered is written before the
      // writer's own closes.
      await write().catch(() => undefined);
      await Promise.allSettled([...writing]);
      await writer.quit().catch(() => writer.disconnect());
    },
  };
}
