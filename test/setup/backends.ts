import { afterAll, inject } from "vitest";
import { connectRedis } from "../../src/app/redis.ts";
import { silentLogger } from "../../src/log.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { testInstant } from "./test-clock.ts";

/**
 * The two Redis shapes the store, scheduler, purge, rotation and worker suites run against: the
 * single private server and the private 3-master cluster. Use with `describe.each(backends())`.
 * At a calendar project's fixed instant (INSIGHTS_TEST_NOW, .ci/run) only the single server: what
 * those runs check is the date, which the deployment's shape does not change, and `npm test` runs
 * the same tests on both shapes at today's date.
 */
export interface Backend {
  name: "single" | "cluster";
  url: string;
}

export function backends(): Backend[] {
  const single: Backend = { name: "single", url: inject("redisUrl") };
  if (testInstant() !== undefined) return [single];
  return [single, { name: "cluster", url: inject("redisClusterUrl") }];
}

/** A client the way the app builds one from REDIS_URL (a worker connection: no retry limit). */
export function connect(url: string, role: "client" | "worker" = "worker"): RedisClient {
  return connectRedis(url, silentLogger(), role);
}

/**
 * The enclosing describe block's connection to `url`, closed after its last test, once `first`
 * (the queues or runtimes built on it) has closed what it must.
 */
export function useRedis(url: string, first?: () => Promise<unknown>): RedisClient {
  const redis = connect(url);
  afterAll(async () => {
    await first?.();
    await redis.quit();
  });
  return redis;
}
