import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createGiveWay } from "../../src/jobs/give-way.ts";

/** The loop's clock, moved by hand: a tick that finds it moved further than its wait was late. */
let clock = 0;
const now = () => clock;
/** Runs the next tick (25 ms), `lateBy` ms late. */
const tick = async (lateBy = 0) => {
  clock += 25 + lateBy;
  await vi.advanceTimersByTimeAsync(25);
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
});
afterEach(() => {
  vi.useRealTimers();
});

describe("deliveries give way", () => {
  it("pass at once while no request runs, however late the loop", async () => {
    const way = createGiveWay({ now });
    await tick(500);
    await expect(way.pass()).resolves.toBeUndefined();
    expect(way.waiting()).toBe(0);
    way.close();
  });

  it("wait while a request runs on a late loop, and start one a tick once it ends", async () => {
    const way = createGiveWay({ now, floorMs: 60_000 });
    const ended = way.request();
    await tick(80);
    const started: number[] = [];
    for (const i of [1, 2]) void way.pass().then(() => started.push(i));
    await tick(80);
    await tick(80);
    expect(started).toEqual([]);
    expect(way.waiting()).toBe(2);
    ended();
    await tick();
    expect(started).toEqual([1]);
    await tick();
    expect(started).toEqual([1, 2]);
    way.close();
  });

  it("a request on a loop that is on time holds nothing", async () => {
    const way = createGiveWay({ now });
    way.request();
    await tick(10);
    await expect(way.pass()).resolves.toBeUndefined();
    way.close();
  });

  it("while the loop stays late, one still starts every floorMs", async () => {
    const way = createGiveWay({ now, floorMs: 100 });
    way.request();
    await tick(80);
    const started: number[] = [];
    for (const i of [1, 2, 3]) void way.pass().then(() => started.push(i));
    // Each late tick moves the clock 105 ms: past the floor each time, one each.
    await tick(80);
    expect(started).toEqual([1]);
    await tick(80);
    expect(started).toEqual([1, 2]);
    way.close();
    await Promise.resolve();
    expect(started).toEqual([1, 2, 3]);
  });
});
