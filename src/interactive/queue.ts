import type { RedisClient } from "../store/redis-client.ts";
import { ADD_SCRIPT, DEPTH_SCRIPT, STREAM_GROUP, streamKey } from "./stream.ts";
import type { BacklogReading, InteractiveExecutor, InteractiveJob } from "./types.ts";

/** Options of createStreamExecutor. Defaults in brackets. */
export interface StreamExecutorOptions {
  /** The web process's fail-fast connection. */
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
}

type Scripted = RedisClient & {
  interactiveAdd(key: string, cap: number, json: string, group: string): Promise<[number, number]>;
  interactiveDepth(key: string, group: string): Promise<[number, number]>;
};

/** Defines the stream's scripts on a connection (EVALSHA, loaded once per connection). */
function scripted(redis: RedisClient): Scripted {
  const r = redis as Scripted;
  if (typeof r.interactiveAdd !== "function") {
    redis.defineCommand("interactiveAdd", { numberOfKeys: 1, lua: ADD_SCRIPT });
    redis.defineCommand("interactiveDepth", { numberOfKeys: 1, lua: DEPTH_SCRIPT });
  }
  return r;
}

/**
 * The web side of the hand-off: each request is one script call that appends it to the stream and
 * returns the backlog (how many wait, and how long the oldest has), which is remembered for
 * admission control (see stream.ts). No queue library
 * on this path: no job objects, no events stream, one round trip.
 */
export function createStreamExecutor(o: StreamExecutorOptions): InteractiveExecutor & { key: string } {
  const redis = scripted(o.connection);
  const key = streamKey(o.prefix, o.name);
  const cap = o.maxLength ?? 50_000;
  let seen: BacklogReading = { count: 0, waitedMs: 0, atMs: 0 };
  const note = ([count, waitedMs]: [number, number]) => {
    seen = { count: Number(count), waitedMs: Number(waitedMs), atMs: Date.now() };
    return seen.count;
  };
  return {
    key,
    async submit(job: InteractiveJob) {
      note(await redis.interactiveAdd(key, cap, JSON.stringify(job), STREAM_GROUP));
    },
    async depth() {
      return note(await redis.interactiveDepth(key, STREAM_GROUP));
    },
    waiting: () => seen,
    async close() {
      // The connection belongs to the composition root; nothing of its own to release.
    },
  };
}
