import type { TestProject } from "vitest/node";
import { startPrivateRedis } from "../../sandbox/redis.ts";
import { startPrivateRedisCluster } from "../../sandbox/redis-cluster.ts";

/**
 * Global setup: one private redis-server and one private 3-master Redis Cluster for the whole run;
 * tests isolate themselves by key prefix and queue name. Suites that must hold on both take their
 * URLs from `backends()` (test/setup/backends.ts).
 */
export default async function setup(project: TestProject) {
  const [redis, cluster] = await Promise.all([startPrivateRedis(), startPrivateRedisCluster(3)]);
  project.provide("redisUrl", redis.url);
  project.provide("redisClusterUrl", cluster.url);
  return async () => {
    await Promise.all([redis.destroy(), cluster.destroy()]);
  };
}
