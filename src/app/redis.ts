import { Cluster, Redis } from "ioredis";
import { type Config, parseRedisUrl } from "../config.ts";
import type { Logger } from "../log.ts";
import { createWriteConfirmer, type SentinelView, type WriteConfirmer } from "../store/confirm-writes.ts";
import { isCluster, type RedisClient } from "../store/redis-client.ts";

/**
 * A server that was the primary and is now a replica (a failover behind a DNS name, or one the
 * sentinels have not announced yet) refuses writes with READONLY. Reconnecting reaches whatever the
 * name or the sentinels point at now, and the refused command is sent again there (2): a replica ran
 * none of it.
 */
export function reconnectOnReadonly(err: Error): false | 2 {
  return err.message.includes("READONLY") ? 2 : false;
}

/** The default deadline of one of the app's own Redis commands (REDIS_COMMAND_TIMEOUT_MS). */
export const COMMAND_TIMEOUT_MS = 5_000;

/**
 * When an idle connection sends its first TCP keepalive probe. A link that drops silently (no FIN, no
 * RST: a cut cable, a partition, a NAT that forgot the flow) leaves an idle connection believing it is
 * up; the probes find out (Node 22's libuv then probes every second, ten times).
 */
export const KEEPALIVE_MS = 5_000;

/**
 * How long a worker connection may wait for any byte while a command is out before its socket is
 * dropped and opened again. Longer than the longest read that blocks on purpose (BullMQ's BZPOPMIN
 * waits at most 10 s, its own watchdog a second more; the interactive reader's XREADGROUP 1 s). A
 * command timeout alone does not do it: it fails the command but keeps the dead socket, and the next
 * command waits on it too, while the kernel retransmits into the void for a quarter of an hour.
 */
export const WORKER_SOCKET_TIMEOUT_MS = 15_000;

/** Deadline of a sentinel's answer (which primary is it?): a silent sentinel must not hold a reconnect. */
export const SENTINEL_COMMAND_TIMEOUT_MS = 2_000;

/**
 * A copy of a connection whose every command has a deadline (a command still waiting for an answer,
 * or for Redis to come back, after `ms` fails with "Command timed out"), for the app's own commands
 * beside BullMQ's on a worker connection. It is a connection of its own: close it too.
 */
export function withCommandTimeout(client: RedisClient, ms: number, logger: Logger): RedisClient {
  // Its commands never block: a socket silent for as long as a command may take is dead.
  const timeouts = { commandTimeout: ms, socketTimeout: ms };
  const copy = isCluster(client)
    ? client.duplicate(undefined, { redisOptions: { ...client.options.redisOptions, ...timeouts } })
    : client.duplicate(timeouts);
  return logErrors(copy, logger, "client");
}

/**
 * A copy of a connection that sends the commands issued in one tick as one socket write (ioredis's
 * auto-pipelining): when dozens of deliveries or requests run at once, their replies arrive together
 * and their next commands leave together, instead of a write, a syscall, per command. Only for the
 * app's own commands (plain commands and scripts by SHA): a library's `defineCommand` commands
 * (BullMQ's, the rate limiter's) fail on an auto-pipeline, and a blocking command would hold up every
 * command behind it, so those keep connections of their own. A connection of its own: close it too.
 */
export function autoPipelined(
  client: RedisClient,
  logger: Logger,
  what: string,
  timeoutMs?: number,
): RedisClient {
  // `timeoutMs`: a command deadline of its own (a connection whose commands may wait on purpose).
  const timeouts = timeoutMs === undefined ? {} : { commandTimeout: timeoutMs, socketTimeout: timeoutMs };
  const copy = isCluster(client)
    ? client.duplicate(undefined, {
        enableAutoPipelining: true,
        redisOptions: { ...client.options.redisOptions, ...timeouts },
      })
    : client.duplicate({ enableAutoPipelining: true, ...timeouts });
  return logErrors(copy, logger, what);
}

/**
 * Every connection gets an 'error' listener, copies too (ioredis copies options, not listeners):
 * without one, ioredis prints each failed reconnect to stderr as a bare line, outside the log and
 * its level, once a second for as long as Redis is away.
 */
function logErrors(client: RedisClient, logger: Logger, what: string): RedisClient {
  client.on("error", (err: Error) =>
    logger.warn({ err: { message: err.message } }, `redis ${what} connection error`),
  );
  return client;
}

/**
 * Redis connections from REDIS_URL: one server, a Redis Cluster (`redis-cluster://h1:p1,h2:p2`), or a
 * primary found through Sentinel (`redis-sentinel://s1:p1,s2:p2/<name>`). Request paths fail fast (a
 * web request should not hang on a dead Redis); BullMQ workers need `maxRetriesPerRequest: null` so
 * blocking commands survive reconnects.
 */
export function connectRedis(
  url: string,
  logger: Logger,
  role: "client" | "worker" = "client",
  commandTimeoutMs = COMMAND_TIMEOUT_MS,
): RedisClient {
  const target = parseRedisUrl(url);
  const common = {
    maxRetriesPerRequest: role === "worker" ? null : 2,
    connectTimeout: 5_000,
    reconnectOnError: reconnectOnReadonly,
    keepAlive: KEEPALIVE_MS,
    // A client's commands never block, so each gets a deadline, and a socket silent that long is
    // dropped; a worker connection is BullMQ's, whose reads block on purpose for a while.
    ...(role === "client"
      ? { commandTimeout: commandTimeoutMs, socketTimeout: commandTimeoutMs }
      : { socketTimeout: WORKER_SOCKET_TIMEOUT_MS }),
  };
  let client: RedisClient;
  if (target.kind === "single") {
    client = new Redis(target.url, { ...common, enableReadyCheck: true, lazyConnect: false });
  } else if (target.kind === "sentinel") {
    client = new Redis({
      ...common,
      enableReadyCheck: true,
      sentinels: target.sentinels,
      name: target.name,
      username: target.username,
      password: target.password,
      sentinelUsername: target.sentinelUsername,
      sentinelPassword: target.sentinelPassword,
      sentinelCommandTimeout: SENTINEL_COMMAND_TIMEOUT_MS,
      // Not ioredis' failoverDetector: its +switch-master handler, arriving while the client is
      // reconnecting, ends the client for good ("Connection is closed"), as the failover test showed.
      // A primary that dies closes its connections, and a demoted one answers READONLY: both reconnect.
      ...(target.tls ? { tls: {}, enableTLSForSentinelMode: true, sentinelTLS: {} } : {}),
    });
  } else {
    client = new Cluster(target.nodes, {
      enableReadyCheck: true,
      // A failover or reshard moves slots; refresh the map rather than fail the command.
      retryDelayOnMoved: 50,
      retryDelayOnFailover: 200,
      redisOptions: {
        ...common,
        username: target.username,
        password: target.password,
        ...(target.tls ? { tls: {} } : {}),
      },
    });
  }
  return logErrors(client, logger, role);
}

/** Reads a sentinel's flat field/value reply into an object. */
function fieldsOf(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

/**
 * A replica Sentinel could still promote: any it does not think down, and one it has thought down for
 * less than ten times its down-after time (Sentinel's own bound for a replica too long out of touch
 * to be chosen). A replica that was away and comes back is promoted with what it had, so until then
 * the writes it missed are the ones a failover would lose.
 */
export const promotable = (r: Record<string, string>, downAfterMs: number) =>
  !/s_down|o_down/.test(r.flags ?? "") || Number(r["s-down-time"] ?? 0) < downAfterMs * 10;

/**
 * What a majority of a Sentinel deployment's sentinels say about its primary, for the write
 * confirmations (store/confirm-writes.ts): each sentinel is asked over a connection of its own with a
 * short deadline, answers are remembered for `cacheMs`, and a run id only counts when a majority of
 * all the sentinels named in REDIS_URL give it (a sentinel cut off with an old primary still names it).
 */
export function sentinelWatch(
  url: string,
  logger: Logger,
  o: { timeoutMs?: number; cacheMs?: number } = {},
): { view(): Promise<SentinelView | null>; close(): void } {
  const target = parseRedisUrl(url);
  if (target.kind !== "sentinel") throw new Error("sentinelWatch needs a redis-sentinel:// URL");
  const timeoutMs = o.timeoutMs ?? 1_000;
  const cacheMs = o.cacheMs ?? 1_000;
  const clients = target.sentinels.map(
    (s) =>
      new Redis({
        host: s.host,
        port: s.port,
        username: target.sentinelUsername,
        password: target.sentinelPassword,
        ...(target.tls ? { tls: {} } : {}),
        lazyConnect: true,
        enableReadyCheck: false,
        connectTimeout: timeoutMs,
        commandTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        keepAlive: KEEPALIVE_MS,
        maxRetriesPerRequest: 0,
        retryStrategy: () => 500,
      }),
  );
  for (const c of clients) c.on("error", () => undefined);
  const ask = async (c: Redis): Promise<SentinelView | null> => {
    try {
      const [primary, replicas] = await Promise.all([
        c.call("SENTINEL", "MASTER", target.name),
        c.call("SENTINEL", "REPLICAS", target.name),
      ]);
      const fields = fieldsOf(primary);
      const downAfterMs = Number(fields["down-after-milliseconds"] ?? 30_000);
      const list = Array.isArray(replicas) ? replicas.map(fieldsOf) : [];
      const count = list.filter((r) => promotable(r, downAfterMs)).length;
      if (!fields.ip || !fields.port) return null;
      return {
        primaryAddr: `${fields.ip}:${fields.port}`,
        primaryRunId: fields.runid ?? "",
        replicas: count,
      };
    } catch {
      return null;
    }
  };
  const majority = Math.floor(clients.length / 2) + 1;
  let cached: { at: number; view: Promise<SentinelView | null> } | undefined;
  const read = async (): Promise<SentinelView | null> => {
    const answers = (await Promise.all(clients.map(ask))).filter((a): a is SentinelView => a !== null);
    const votes = new Map<string, SentinelView[]>();
    for (const a of answers) votes.set(a.primaryAddr, [...(votes.get(a.primaryAddr) ?? []), a]);
    for (const [primaryAddr, agreeing] of votes)
      if (agreeing.length >= majority) {
        // A sentinel learns the run id of a primary from its INFO, seconds after a failover: until
        // then it has none, and the address alone names the primary. Run ids that disagree name none.
        const ids = new Set(agreeing.map((a) => a.primaryRunId).filter(Boolean));
        if (ids.size > 1) break;
        // The most replicas any of them sees: waiting for one that is there is safe, skipping one is not.
        return {
          primaryAddr,
          primaryRunId: [...ids][0] ?? "",
          replicas: Math.max(...agreeing.map((a) => a.replicas)),
        };
      }
    logger.warn(
      { answers: answers.length, of: clients.length },
      "no majority of the sentinels agrees on the primary",
    );
    return null;
  };
  return {
    view() {
      if (!cached || Date.now() - cached.at >= cacheMs) cached = { at: Date.now(), view: read() };
      return cached.view;
    },
    close() {
      for (const c of clients) c.disconnect();
    },
  };
}

/**
 * The confirmations REDIS_CONFIRM_WRITES asks for, of the writes made on `redis` (WAIT covers the
 * connection it is asked on), with the sentinels' view on a Sentinel REDIS_URL: `view` when the
 * process has one, else asked here over connections of its own, which `close` ends.
 */
export function confirmerFor(
  config: Config,
  redis: RedisClient,
  logger: Logger,
  view?: () => Promise<SentinelView | null>,
): { confirmer: WriteConfirmer; view?: () => Promise<SentinelView | null>; close(): void } {
  const own =
    !view && config.redisUrl !== undefined && parseRedisUrl(config.redisUrl).kind === "sentinel"
      ? sentinelWatch(config.redisUrl, logger)
      : undefined;
  const sentinelView = view ?? own?.view;
  const confirmer = createWriteConfirmer({
    redis,
    mode: config.redisConfirmWrites,
    sentinelView,
    timeoutMs: config.redisConfirmTimeoutMs,
    logger,
  });
  return { confirmer, view: sentinelView, close: () => own?.close() };
}
