import { Cluster, Redis } from "ioredis";
import { parseRedisUrl } from "../config.ts";
import type { Logger } from "../log.ts";
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
 * A copy of a connection whose every command has a deadline (a command still waiting for an answer,
 * or for Redis to come back, after `ms` fails with "Command timed out"), for the app's own commands
 * beside BullMQ's on a worker connection. It is a connection of its own: close it too.
 */
export function withCommandTimeout(client: RedisClient, ms: number, logger: Logger): RedisClient {
  const copy = isCluster(client)
    ? client.duplicate(undefined, { redisOptions: { ...client.options.redisOptions, commandTimeout: ms } })
    : client.duplicate({ commandTimeout: ms });
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
export function autoPipelined(client: RedisClient, logger: Logger, what: string): RedisClient {
  const copy = isCluster(client)
    ? client.duplicate(undefined, { enableAutoPipelining: true })
    : client.duplicate({ enableAutoPipelining: true });
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
    // A client's commands never block, so each gets a deadline; a worker connection is BullMQ's.
    ...(role === "client" ? { commandTimeout: commandTimeoutMs } : {}),
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
