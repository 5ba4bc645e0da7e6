import { Cluster, Redis } from "ioredis";
import { parseRedisUrl } from "../config.ts";
import type { Logger } from "../log.ts";
import type { RedisClient } from "../store/redis-client.ts";

/**
 * Redis connections from REDIS_URL: one server, or a Redis Cluster (`redis-cluster://h1:p1,h2:p2`).
 * Request paths fail fast (a web request should not hang on a dead Redis); BullMQ workers need
 * `maxRetriesPerRequest: null` so blocking commands survive reconnects.
 */
export function connectRedis(url: string, logger: Logger, role: "client" | "worker" = "client"): RedisClient {
  const target = parseRedisUrl(url);
  const common = {
    maxRetriesPerRequest: role === "worker" ? null : 2,
    connectTimeout: 5_000,
  };
  const client: RedisClient =
    target.kind === "single"
      ? new Redis(target.url, { ...common, enableReadyCheck: true, lazyConnect: false })
      : new Cluster(target.nodes, {
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
  // An 'error' listener is required: without one ioredis errors crash the process.
  client.on("error", (err: Error) =>
    logger.warn({ err: { message: err.message } }, `redis ${role} connection error`),
  );
  return client;
}
