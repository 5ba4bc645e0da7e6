import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { REDIS_INSTALL_HINT, redisServerAvailable, startPrivateRedis } from "../../sandbox/redis.ts";

/**
 * Why the tests need redis-server itself. A REDIS_URL would not do: several tests stop, kill and
 * restart their own server to prove nothing is lost, and the rest write to a Redis they own.
 */
export const TESTS_NEED_REDIS_SERVER = `The tests need redis-server on PATH: they start private ones in temp dirs (some are killed and restarted on purpose), so they do not use REDIS_URL. Install it (${REDIS_INSTALL_HINT}) and run npm test again.`;

import { startPrivateRedisCluster } from "../../sandbox/redis-cluster.ts";

/**
 * Global setup: one private redis-server and one private 3-master Redis Cluster for the whole run;
 * tests isolate themselves by key prefix and queue name. Suites that must hold on both take their
 * URLs from `backends()` (test/setup/backends.ts).
 */
export default async function setup(project: TestProject) {
  if (!redisServerAvailable()) {
    // Exit with the sentence alone: a thrown error would come with the runner's "Unhandled Error"
    // banner and a "No test files found" line that sends the reader looking in the wrong place.
    process.stderr.write(`\n${TESTS_NEED_REDIS_SERVER}\n\n`);
    process.exit(1);
  }
  // The partition tests bring their own Redis (a Sentinel deployment in network namespaces): a run
  // of them alone (`--project partitions`, CI's step beside `npm test`) starts no server here, and
  // takes no loopback port from the tests running beside it.
  if (project.vitest.projects.every((p) => p.name === "partitions")) return;
  // The suite starts some hundred product processes and threads, each loading the same few hundred
  // modules: Node's on-disk compile cache (inherited by the test workers, their threads and the
  // children that get this environment) spares each start after the first the compiling, about a
  // tenth of a worker process's start-up CPU. It changes nothing but speed; a variable already set
  // (or NODE_DISABLE_COMPILE_CACHE=1) wins.
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), "insights-digest-test-compile-cache");
  const [redis, cluster] = await Promise.all([startPrivateRedis(), startPrivateRedisCluster(3)]);
  project.provide("redisUrl", redis.url);
  project.provide("redisClusterUrl", cluster.url);
  return async () => {
    await Promise.all([redis.destroy(), cluster.destroy()]);
  };
}
