import { describe, expect, it } from "vitest";
import { createThreadPool } from "../../src/interactive/pool.ts";
import { silentLogger } from "../../src/log.ts";

/** Timers that keep this process alive (unref'd ones are not listed). */
const heldTimers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

describe("the digest thread pool's close", () => {
  it("leaves no timer of its own keeping the process alive once its threads have exited", async () => {
    const before = heldTimers();
    const pool = createThreadPool({
      entry: new URL("../fixtures/threads/echo-thread.ts", import.meta.url),
      data: {},
      size: 2,
      concurrency: 1,
      logger: silentLogger(),
    });
    await pool.ready(20_000);
    expect(pool.readyThreads()).toBe(2);
    await pool.close();
    // The bound on each thread's exit (seconds long) used to stay armed after the thread had gone,
    // and held a stopping `start` process open that long.
    expect(heldTimers()).toBeLessThanOrEqual(before);
  });
});
