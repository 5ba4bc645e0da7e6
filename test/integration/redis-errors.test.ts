import { afterEach, describe, expect, it, vi } from "vitest";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { autoPipelined, connectRedis, withCommandTimeout } from "../../src/app/redis.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { captureLog } from "../fixtures/log-capture.ts";

/**
 * While Redis is away, every connection the app opens — its copies too (a copy with a deadline, an
 * auto-pipelined one) — reports its failed reconnects through the app's log, as JSON at warn level.
 * ioredis copies a connection's options but not its listeners, and a connection without an 'error'
 * listener prints each failure to stderr as a bare line, outside the log.
 */
let redis: PrivateRedis | undefined;
const clients: RedisClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.disconnect();
  await redis?.destroy();
  redis = undefined;
  vi.restoreAllMocks();
});

describe("Redis connection errors", () => {
  it("go to the log from the worker's connection and from each copy of it, never to stderr", async () => {
    redis = await startPrivateRedis();
    const { lines, logger } = captureLog("info");
    const printed = vi.spyOn(console, "error");
    const worker = connectRedis(redis.url, logger, "worker");
    const own = withCommandTimeout(worker, 500, logger);
    const piped = autoPipelined(own, logger, "pipelined");
    clients.push(worker, own, piped);
    await Promise.all([worker.ping(), own.ping(), piped.ping()]);

    await redis.stop("SIGKILL");
    const said = (msg: string) => lines.some((l) => l.level === "warn" && l.msg === msg);
    const deadline = Date.now() + 15_000;
    while (
      !(
        said("redis worker connection error") &&
        said("redis client connection error") &&
        said("redis pipelined connection error")
      ) &&
      Date.now() < deadline
    )
      await new Promise((r) => setTimeout(r, 100));

    expect(said("redis worker connection error")).toBe(true);
    expect(said("redis client connection error")).toBe(true);
    expect(said("redis pipelined connection error")).toBe(true);
    expect(
      (
        lines.find((l) => l.msg === "redis pipelined connection error")?.err as
          | { message?: string }
          | undefined
      )?.message,
    ).toMatch(/ECONNREFUSED|ECONNRESET|Connection is closed/);
    expect(
      printed.mock.calls.filter((c) => String(c[0]).includes("[ioredis] Unhandled error event")),
    ).toEqual([]);
  });
});
