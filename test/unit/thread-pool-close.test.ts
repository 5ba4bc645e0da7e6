import { describe, expect, it } from "vitest";
import { createThreadPool } from "../../src/interactive/pool.ts";
import type { InteractiveJob } from "../../src/interactive/types.ts";
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

describe("the digest thread pool's run", () => {
  const job = (id: string) =>
    ({
      id,
      route: { kind: "command", name: "/insights" },
      receivedAt: Date.now(),
    }) as unknown as InteractiveJob;
  const slowPool = () =>
    createThreadPool({
      entry: new URL("../fixtures/threads/slow-thread.ts", import.meta.url),
      data: {},
      size: 1,
      concurrency: 2,
      logger: silentLogger(),
      drainMs: 200,
    });

  it("resolves with how the job ended in its thread; the same request twice at once is refused", async () => {
    const pool = slowPool();
    await pool.ready(20_000);
    expect(await pool.run(job("quick-1"))).toMatchObject({ id: "quick-1", outcome: "ok" });
    const slow = expect(pool.run(job("slow-1"))).rejects.toThrow("stopped");
    await expect(pool.run(job("slow-1"))).rejects.toThrow("the request is running");
    await pool.terminate();
    await slow;
  });

  it("a job whose run threw goes back to its caller unfinished, with the error's code", async () => {
    const pool = slowPool();
    await pool.ready(20_000);
    await expect(pool.run(job("fail-1"))).rejects.toMatchObject({
      code: "redis_unconfirmed",
      message: "no replica acknowledged",
    });
    // The pool goes on: the next job ends as usual.
    expect(await pool.run(job("quick-2"))).toMatchObject({ id: "quick-2", outcome: "ok" });
    await pool.close();
  });

  it("a job that never ended when the pool closed goes back to its caller unfinished", async () => {
    const pool = slowPool();
    await pool.ready(20_000);
    const running = pool.run(job("slow-2"));
    const queued = [pool.run(job("slow-3")), pool.run(job("slow-4"))];
    const settled = Promise.allSettled([running, ...queued]);
    await pool.close();
    expect((await settled).map((r) => r.status)).toEqual(["rejected", "rejected", "rejected"]);
    await expect(pool.run(job("quick-2"))).rejects.toThrow("closed");
  });
});
