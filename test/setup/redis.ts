import type { TestProject } from "vitest/node";
import { startPrivateRedis } from "../../sandbox/redis.ts";

/** Global setup: one private redis-server for the whole run; tests isolate themselves by key prefix. */
export default async function setup(project: TestProject) {
  const redis = await startPrivateRedis();
  project.provide("redisUrl", redis.url);
  return async () => {
    await redis.destroy();
  };
}
