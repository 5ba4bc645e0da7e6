import { Redis } from "ioredis";
import type { Logger } from "../log.ts";

/**
 * Redis connections. Request paths fail fast (a web request should not hang on a dead Redis);
 * BullMQ workers need `maxRetriesPerRequest: null` so blocking commands survive reconnects.
 */
export function connectRedis(url: string, logger: Logger, role: "client" | "worker" = "client"): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: role === "worker" ? null : 2,
    connectTimeout: 5_000,
    enableReadyCheck: true,
    lazyConnect: false,
  });
  // An 'error' listener is required: without one ioredis errors crash the process.
  redis.on("error", (err) =>
    logger.warn({ err: { message: err.message } }, `redis ${role} connection error`),
  );
  return redis;
}
