import { createHmac } from "node:crypto";
import { createTtlMemo } from "../bounded-map.ts";
import { AppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { KeyScheme } from "../store/keys.ts";
import { PACKED_FORM, packText, unpackText } from "../store/packed-text.ts";
import { isCluster, type RedisClient } from "../store/redis-client.ts";
import { lockToken, runScript, script } from "../store/scripts.ts";

/**
 * Computed drivers shared by every digest that asks the same question of the same account: in this
 * process (a result held for its TTL, a computation in flight joined), and across processes through
 * Redis — the first to ask takes a lock and computes, the others read the result, or, while it is
 * being computed, wait for the notice its writer publishes (a blocking wait, never a poll).
 *
 * Results are keyed by the account, named by a keyed hash of its API key (the key itself never
 * reaches Redis, and without the secret a stolen dump cannot be matched to keys), and by the
 * request's digest: workspaces that share a key share results, different keys never do.
 */

export interface DriversCacheOptions {
  redis: RedisClient;
  keys: KeyScheme;
  /** The secret of the keyed hash that names accounts (derived from the keyring at the composition root). */
  secret: Buffer;
  logger: Logger;
  /** How long a result is shared [120 s]: a slot's deliveries go out within it. */
  ttlMs?: number;
  /** How long a failure is shared, so a service in trouble is not asked again by every waiter [5 s]. */
  errorTtlMs?: number;
  /** Upper bound on one computation while others wait on it [30 s; longer than the client's retries]. */
  lockMs?: number;
  /**
   * How many characters of results (as JSON) this process holds [8 MiB]; the least recently stored go
   * first, except that results computed ahead (a slot's warm-up) and not read yet go last. A slot's
   * warm-up computes results ahead of its deliveries, and a delivery whose result is
   * no longer held reads it back from Redis (a round trip, inflating and parsing it). Held in the heap,
   * a result takes several times its JSON's length: in a storm of 2,000 digests 8 MiB halved those
   * reads (1,744 to 879; the worker's peak 379 MB against 370 with 500 results held), and in one of
   * 10,000 the peak was 446 MB against 422; 32 MiB left none in the first, but peaked at 560 MB in the
   * second. Sparing the results not read yet cut the reads back again, 858 to 360 of 2,000 (Node 22),
   * but only 8,950 to 8,082 of 10,000: there the warm-up runs further ahead than the bound holds.
   */
  memoChars?: number;
  /** The connection that waits for notices closes after this long without waiters [5 s]. */
  idleCloseMs?: number;
}

export interface DriversCache {
  /**
   * The shared value of `request` for the account of `apiKey`: held here, being computed here, in
   * Redis, being computed elsewhere (waited for), or computed by `compute` under the lock. A failure
   * with a code is shared for a few seconds like a result; anything else only fails its own callers.
   * A reader of a value computed ahead (`warm`) takes it as read.
   */
  get<T>(apiKey: string, request: string, compute: () => Promise<T>): Promise<T>;
  /**
   * Makes sure the value of `request` is computed, for readers still to come (a slot's warm-up): held
   * or being computed here, already in Redis (not read back: its reader will read it), or being
   * computed elsewhere (not waited for) ends it; otherwise `compute` runs under the lock and the value
   * is stored as `get` stores it, held here ahead of its reader. Fails as `compute` fails.
   */
  warm<T>(apiKey: string, request: string, compute: () => Promise<T>): Promise<void>;
  /** A value this process holds for the request, without asking Redis. */
  peek<T>(apiKey: string, request: string): T | undefined;
  /** Closes the connection that waits for notices (if open). */
  close(): Promise<void>;
}

/** A result and the length of its JSON. */
interface Held<T> {
  value: T;
  chars: number;
}

interface Packed {
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}

// KEYS: result, lock. ARGV: token, lock ms. {1, value}: cached; {2, ''}: ours to compute; {0, pttl}: someone computes.
const GET_OR_LOCK = script(`
local v = redis.call('get', KEYS[1])
if v then return {1, v} end
if redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return {2, ''} end
return {0, tostring(redis.call('pttl', KEYS[2]))}`);

// KEYS: result, lock. ARGV: token, lock ms. {1}: stored (not read); {2}: ours to compute; {0}: someone computes.
const EXISTS_OR_LOCK = script(`
if redis.call('exists', KEYS[1]) == 1 then return 1 end
if redis.call('set', KEYS[2], ARGV[1], 'PX', ARGV[2], 'NX') then return 2 end
return 0`);

// KEYS: result, lock. ARGV: value ('' = none), ttl ms, token, channel.
// Stores the value, releases our lock and tells the waiters (with the value itself): one round trip.
const STORE_AND_TELL = script(`
if ARGV[1] ~= '' then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if redis.call('get', KEYS[2]) == ARGV[3] then redis.call('del', KEYS[2]) end
redis.call('publish', ARGV[4], ARGV[1])
return 1`);

/** A value as stored in Redis, and its JSON's length (what the memo counts it as). */
function pack(p: Packed): { raw: string; chars: number } {
  const json = JSON.stringify(p);
  return { raw: packText(json), chars: json.length };
}

/** A value read back, and its JSON's length; a shared failure is thrown. */
function unpack<T>(raw: string): Held<T> {
  const json = unpackText(raw);
  const p = JSON.parse(json) as Packed;
  if (p.ok) return { value: p.value as T, chars: json.length };
  const e = p.error ?? { code: "unavailable", message: "The analytics service did not answer." };
  throw new AppError(e.code, e.message, { details: { shared: true } });
}

/** One connection in subscriber mode for every wait of this process, opened on the first and closed when idle. */
function createNotices(redis: RedisClient, logger: Logger, idleCloseMs: number) {
  let sub: RedisClient | undefined;
  let idle: NodeJS.Timeout | undefined;
  const listeners = new Map<string, Set<(message: string) => void>>();
  const open = () => {
    if (idle) clearTimeout(idle);
    idle = undefined;
    if (sub) return sub;
    // A subscriber's commands are never batched with others' (the worker's connection is auto-pipelined).
    const conn: RedisClient = isCluster(redis)
      ? redis.duplicate(undefined, { enableAutoPipelining: false })
      : redis.duplicate({ enableAutoPipelining: false });
    conn.on("error", (err: Error) =>
      logger.warn({ err: { message: err.message } }, "drivers notice connection error"),
    );
    conn.on("message", (channel: string, message: string) => {
      for (const l of listeners.get(channel) ?? []) l(message);
    });
    sub = conn;
    return conn;
  };
  const closeNow = async () => {
    const conn = sub;
    sub = undefined;
    if (idle) clearTimeout(idle);
    idle = undefined;
    if (conn) await conn.quit().catch(() => conn.disconnect());
  };
  return {
    /** Listens on `channel`; resolves once the subscription is in place (so no notice after it is missed). */
    async listen(channel: string, listener: (message: string) => void): Promise<() => void> {
      const conn = open();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      if (set.size === 1) await conn.subscribe(channel);
      return () => {
        const s = listeners.get(channel);
        s?.delete(listener);
        if (s && s.size === 0) {
          listeners.delete(channel);
          sub?.unsubscribe(channel).catch(() => undefined);
        }
        if (listeners.size === 0 && sub && !idle) {
          idle = setTimeout(() => void closeNow(), idleCloseMs);
          idle.unref();
        }
      };
    },
    close: closeNow,
  };
}

/**
 * The drivers result cache. Values must survive JSON: they are shared as JSON through Redis, and
 * as the same object within this process (readers never change them).
 *
 * @example
 * const outcome = await cache.get(apiKey, requestDigest, () => computeDriversView(deps, req));
 */
export function createDriversCache(o: DriversCacheOptions): DriversCache {
  const { redis, keys, logger } = o;
  const ttlMs = o.ttlMs ?? 120_000;
  const errorTtlMs = o.errorTtlMs ?? 5_000;
  const lockMs = o.lockMs ?? 30_000;
  // Bounded by the results' JSON length: a year's drivers weigh an order of magnitude more than a week's.
  const memo = createTtlMemo<unknown>(o.memoChars ?? 8 * 1024 * 1024);
  const notices = createNotices(redis, logger, o.idleCloseMs ?? 5_000);
  const inFlight = new Map<string, Promise<unknown>>();
  // Computed each time (an HMAC costs about a microsecond): a map from API keys to their tags would
  // hold the keys themselves in memory.
  const account = (apiKey: string): string =>
    createHmac("sha256", o.secret).update(apiKey).digest("base64url").slice(0, 22);
  // The result, its lock and its notices (which carry the value) under keys naming the stored form: a
  // process that reads another form neither reads these results nor waits for them.
  const keysOf = (apiKey: string, request: string) =>
    keys.drivers(account(apiKey), `${request}.${PACKED_FORM}`);

  async function shared<T>(k: ReturnType<KeyScheme["drivers"]>, compute: () => Promise<T>): Promise<Held<T>> {
    const deadline = Date.now() + 2 * lockMs;
    for (;;) {
      const token = lockToken();
      const [state, payload] = (await runScript(redis, GET_OR_LOCK, [k.result, k.lock], [token, lockMs])) as [
        number,
        string,
      ];
      if (state === 1) {
        // Counted at debug level: how often a result this process could have held came back from Redis.
        logger.debug("drivers result read back from Redis");
        return unpack<T>(payload);
      }
      if (state === 2) return computeAndTell(k, token, compute);
      if (Date.now() > deadline)
        throw new AppError("unavailable", "The breakdown was not computed in time.", {
          details: { waitedForPeer: true },
        });
      // Someone else computes: wait for its notice (or its lock to run out), then look again.
      const notice = await waitForNotice(k, Number(payload));
      if (notice !== null && notice !== "") return unpack<T>(notice);
    }
  }

  /** Resolves with the notice's value ('' = look again), or null when the lock ran out first. */
  async function waitForNotice(k: ReturnType<KeyScheme["drivers"]>, pttl: number): Promise<string | null> {
    let done: (v: string | null) => void = () => undefined;
    const got = new Promise<string | null>((resolve) => {
      done = resolve;
    });
    const stop = await notices.listen(k.channel, (message) => done(message));
    try {
      // The result may have landed between the lock check and the subscription: look once more.
      const again = (await redis.get(k.result)) ?? null;
      if (again !== null) return again;
      const timer = setTimeout(() => done(null), Math.max(50, pttl > 0 ? pttl + 50 : 50));
      const message = await got;
      clearTimeout(timer);
      return message;
    } finally {
      stop();
    }
  }

  async function computeAndTell<T>(
    k: ReturnType<KeyScheme["drivers"]>,
    token: string,
    compute: () => Promise<T>,
  ): Promise<Held<T>> {
    const tell = (value: string, ttl: number) =>
      runScript(redis, STORE_AND_TELL, [k.result, k.lock], [value, ttl, token, k.channel]).catch(
        (err: unknown) => logger.warn({ err }, "drivers cache write failed"),
      );
    let value: T;
    try {
      value = await compute();
    } catch (err) {
      // A failure with a code is an answer others may share for a moment; anything else is ours alone.
      await tell(
        err instanceof AppError
          ? pack({ ok: false, error: { code: err.code, message: err.message } }).raw
          : "",
        errorTtlMs,
      );
      throw err;
    }
    const packed = pack({ ok: true, value });
    // Not awaited: the value is ready; the write and the notice go out while the digest is built.
    void tell(packed.raw, ttlMs);
    return { value, chars: packed.chars };
  }

  /**
   * A value on its way, held here once it is in (`ahead`: for a reader still to come); readers in
   * this process asking meanwhile join it.
   */
  function track<T>(
    k: ReturnType<KeyScheme["drivers"]>,
    pending: Promise<Held<T>>,
    ahead: boolean,
  ): Promise<T> {
    const p = pending
      .then(({ value, chars }) => {
        memo.set(k.result, value, Date.now() + ttlMs, chars, ahead);
        return value;
      })
      .finally(() => {
        if (inFlight.get(k.result) === p) inFlight.delete(k.result);
      });
    inFlight.set(k.result, p);
    return p;
  }

  return {
    get<T>(apiKey: string, request: string, compute: () => Promise<T>): Promise<T> {
      const k = keysOf(apiKey, request);
      const held = memo.get(k.result) as T | undefined;
      if (held !== undefined) return Promise.resolve(held);
      const running = inFlight.get(k.result);
      if (running)
        return running.then((v) => {
          // Read once it is in: a value computed ahead need not be spared any more.
          memo.get(k.result);
          return v as T;
        });
      return track(k, shared(k, compute), false);
    },
    async warm<T>(apiKey: string, request: string, compute: () => Promise<T>): Promise<void> {
      const k = keysOf(apiKey, request);
      if (memo.get(k.result, Date.now(), false) !== undefined || inFlight.has(k.result)) return;
      const token = lockToken();
      const state = Number(await runScript(redis, EXISTS_OR_LOCK, [k.result, k.lock], [token, lockMs]));
      if (state !== 2) return;
      await track(k, computeAndTell(k, token, compute), true);
    },
    peek<T>(apiKey: string, request: string): T | undefined {
      return memo.get(keysOf(apiKey, request).result) as T | undefined;
    },
    close: () => notices.close(),
  };
}
