import { describe, expect, it } from "vitest";
import type { BacklogReading, InteractiveExecutor, Offload } from "../../src/interactive/types.ts";
import { overBacklog } from "../../src/slack/frame/offload.ts";

/**
 * When a request is told "busy, your answer is coming": when the requests already waiting have
 * waited the busy wait (the answer is expected later than that), or more than the cap wait. A busy
 * reading older than a quarter second is read again before it is believed.
 *
 * offloadWith: an executor whose first reading, `[count, waitedMs]`, was taken `ageMs` ago; each read of Redis
 * (`depth`) gives the next reading (the last one repeats).
 */
function offloadWith(ageMs: number, ...readings: [number, number][]) {
  const reading = (i: number, atMs: number): BacklogReading => {
    const [count, waitedMs] = readings[Math.min(i, readings.length - 1)] as [number, number];
    return { count, waitedMs, atMs };
  };
  let current = reading(0, Date.now() - ageMs);
  let reads = 0;
  const executor: InteractiveExecutor = {
    submit: async () => undefined,
    async depth() {
      reads++;
      current = reading(reads, Date.now());
      return current.count;
    },
    waiting: () => current,
    close: async () => undefined,
  };
  const offload: Offload = { executor, backlog: 1_000, busyAfterMs: 1_500 };
  return { offload, reads: () => reads };
}

describe("the busy note's valve", () => {
  it("opens on how long the waiting requests have waited, not on how many wait", async () => {
    expect(await overBacklog(offloadWith(0, [400, 300]).offload)).toBe(false);
    expect(await overBacklog(offloadWith(0, [3, 1_500]).offload)).toBe(true);
    expect(await overBacklog(offloadWith(0, [1_000, 10]).offload)).toBe(true);
  });

  it("believes a fresh busy reading, and reads a stale one again first", async () => {
    const fresh = offloadWith(0, [3, 2_000]);
    expect(await overBacklog(fresh.offload)).toBe(true);
    expect(fresh.reads()).toBe(0);
    // A burst that drained: the old reading said busy, the new one does not.
    const drained = offloadWith(1_000, [3, 2_000], [0, 0]);
    expect(await overBacklog(drained.offload)).toBe(false);
    expect(drained.reads()).toBe(1);
  });

  it("ages a quiet reading by the time since, and reads it again before saying busy", async () => {
    // 1.2 s of wait seen 0.5 s ago: 1.7 s by now, past the bound, but only believed after a new reading.
    const aged = offloadWith(500, [2, 1_200], [2, 1_700]);
    expect(await overBacklog(aged.offload)).toBe(true);
    expect(aged.reads()).toBe(1);
    // A worker took them meanwhile: the new reading says nothing waits.
    const taken = offloadWith(500, [2, 1_200], [0, 0]);
    expect(await overBacklog(taken.offload)).toBe(false);
    // Nothing waiting never ages into busy.
    expect(await overBacklog(offloadWith(60_000, [0, 0]).offload)).toBe(false);
  });

  it("keeps the last reading when Redis cannot be read", async () => {
    const { offload } = offloadWith(1_000, [3, 2_000]);
    offload.executor.depth = () => Promise.reject(new Error("down"));
    expect(await overBacklog(offload)).toBe(true);
  });

  it("does not hold the ack for a reading Redis does not give: the last one stands after 300 ms", async () => {
    const { offload } = offloadWith(1_000, [3, 2_000]);
    // Redis failing over or cut off: the read never answers (until its command deadline, seconds later).
    offload.executor.depth = () => new Promise<number>(() => undefined);
    const started = Date.now();
    expect(await overBacklog(offload)).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
