import type { TestProject } from "vitest/node";
import { REDIS_INSTALL_HINT, redisServerAvailable, startPrivateRedis } from "../../sandbox/redis.ts";

/**
 * Why the tests need redis-server itself. A REDIS_URL would not do: several tests stop, kill and
 * restart their own server to prove nothing is lost, and the rest write to a Redis they own.
 */
export const TESTS_NEED_REDIS_SERVER = `The tests need redis-server on PATH: they start private ones in temp dirs (some are killed and restarted on purpose), so they do not use REDIS_URL. Install it (${REDIS_INSTALL_HINT}) and run npm test again.`;

/** Global setup: one private redis-server for the whole run; tests isolate themselves by key prefix. */
export default async function setup(project: TestProject) {
  if (!redisServerAvailable()) {
    // Exit with the sentence alone: a thrown error would come with the runner's "Unhandled Error"
    // banner and a "No test files found" line that sends the reader looking in the wrong place.
    process.stderr.write(`\n${TESTS_NEED_REDIS_SERVER}\n\n`);
    process.exit(1);
  }
  const redis = await startPrivateRedis();
  project.provide("redisUrl", redis.url);
  return async () => {
    await redis.destroy();
  };
}
