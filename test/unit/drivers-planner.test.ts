import { describe, expect, it } from "vitest";
import { type BucketCompute, createDriversPlanner } from "../../src/digests/drivers-planner.ts";
import type { DriversOutcome } from "../../src/digests/drivers-service.ts";
import type { Periods } from "../../src/insights/period-totals.ts";

/** A digest ending on the 20th whose range is `days` long. */
const digest = (days: number) => ({
  request: `last${days}d`,
  periods: {
    from: `2026-11-${String(21 - days).padStart(2, "0")}`,
    to: "2026-11-20",
    previousFrom: "2026-10-01",
    previousTo: "2026-10-31",
  } satisfies Periods,
});

/** An outcome that names the request it was computed for. */
const outcomeFor = (request: string) =>
  ({ view: { request }, previousSeries: [] }) as unknown as DriversOutcome;

/**
 * A bucket computation that waits for `lists` (the first digest's reply), then takes the bucket's
 * digests and answers each; every run is recorded with the requests it took.
 */
function computations() {
  const runs: string[][] = [];
  const gates: { open: () => void; fail: (err: Error) => void }[] = [];
  const compute: BucketCompute = (take) =>
    new Promise<void>((open, fail) => gates.push({ open, fail })).then(() => {
      const { requests } = take();
      runs.push(requests);
      return new Map(requests.map((r) => [r, outcomeFor(r)]));
    });
  return { compute, runs, gates };
}

const requestOf = (o: DriversOutcome) => (o.view as unknown as { request: string }).request;

describe("drivers planner: digests nobody planned", () => {
  it("join the bucket still waiting for its lists, and one computation answers them all", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    const asked = [7, 8, 9].map((d) => planner.outcome("acct|filters|2026-11-20", digest(d), compute));
    expect(gates.length).toBe(1);
    gates[0]?.open();
    const outcomes = await Promise.all(asked);
    expect(outcomes.map(requestOf)).toEqual(["last7d", "last8d", "last9d"]);
    expect(runs).toEqual([["last7d", "last8d", "last9d"]]);
  });

  it("a digest asked after the computation took its digests starts the next one", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    const first = planner.outcome("b", digest(7), compute);
    gates[0]?.open();
    await first;
    const late = planner.outcome("b", digest(8), compute);
    expect(gates.length).toBe(2);
    gates[1]?.open();
    expect(requestOf(await late)).toBe("last8d");
    expect(runs).toEqual([["last7d"], ["last8d"]]);
    expect(planner.size()).toBe(0);
  });

  it("the same digest asked twice at once is computed once and handed to both", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    const both = [planner.outcome("b", digest(7), compute), planner.outcome("b", digest(7), compute)];
    gates[0]?.open();
    expect((await Promise.all(both)).map(requestOf)).toEqual(["last7d", "last7d"]);
    expect(runs).toEqual([["last7d"]]);
    expect(planner.size()).toBe(0);
  });

  it("a computation that failed before taking its digests fails its askers, and the next asker starts afresh", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    const asked = [planner.outcome("b", digest(7), compute), planner.outcome("b", digest(8), compute)];
    gates[0]?.fail(new Error("the lists did not come"));
    const settled = await Promise.allSettled(asked);
    expect(settled.map((s) => s.status)).toEqual(["rejected", "rejected"]);
    const again = planner.outcome("b", digest(7), compute);
    expect(gates.length).toBe(2);
    gates[1]?.open();
    expect(requestOf(await again)).toBe("last7d");
    expect(runs).toEqual([["last7d"]]);
  });

  it("buckets of other keys are not joined", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    const a = planner.outcome("account-1", digest(7), compute);
    const b = planner.outcome("account-2", digest(7), compute);
    expect(gates.length).toBe(2);
    for (const g of gates) g.open();
    await Promise.all([a, b]);
    expect(runs).toEqual([["last7d"], ["last7d"]]);
  });

  it("a slot's planned digests and a digest asked meanwhile share the planned bucket", async () => {
    const planner = createDriversPlanner();
    const { compute, runs, gates } = computations();
    planner.plan("b", [digest(7), digest(8)]);
    const delivery = planner.outcome("b", digest(7), compute);
    const someone = planner.outcome("b", digest(9), compute);
    gates[0]?.open();
    await Promise.all([delivery, someone]);
    expect(runs).toEqual([["last7d", "last8d", "last9d"]]);
    // The planned digest nobody delivered yet is still held for its delivery.
    expect(requestOf(await planner.outcome("b", digest(8), compute))).toBe("last8d");
    expect(gates.length).toBe(1);
  });
});

describe("drivers planner: how long a bucket is held", () => {
  it("a planned bucket nobody delivered goes at its own deadline, one made later at its own", () => {
    let t = 1_000;
    const planner = createDriversPlanner({ ttlMs: 100, now: () => t });
    planner.plan("a", [digest(7)]);
    t = 1_060;
    planner.plan("b", [digest(7)]);
    expect(planner.size()).toBe(2);
    t = 1_099;
    expect(planner.size()).toBe(2);
    t = 1_100;
    expect(planner.size()).toBe(1);
    t = 1_159;
    expect(planner.size()).toBe(1);
    t = 1_160;
    expect(planner.size()).toBe(0);
  });

  it("a digest asked after its planned bucket expired starts a new computation", async () => {
    let t = 0;
    const planner = createDriversPlanner({ ttlMs: 100, now: () => t });
    const { compute, runs, gates } = computations();
    planner.plan("b", [digest(7), digest(8)]);
    t = 100;
    const late = planner.outcome("b", digest(8), compute);
    gates[0]?.open();
    expect(requestOf(await late)).toBe("last8d");
    // The expired plan's other digest is not part of the new computation.
    expect(runs).toEqual([["last8d"]]);
  });
});

describe("drivers planner: whether a bucket was planned", () => {
  it("tells its computation, which may then take its digests at once (none is left out)", async () => {
    const planner = createDriversPlanner();
    const seen: boolean[] = [];
    const compute: BucketCompute = async (take, planned) => {
      seen.push(planned);
      const { requests } = take();
      return new Map(requests.map((r) => [r, outcomeFor(r)]));
    };
    planner.plan("planned", [digest(7), digest(8)]);
    const [a, b] = await Promise.all([
      planner.outcome("planned", digest(7), compute),
      planner.outcome("planned", digest(8), compute),
    ]);
    expect([requestOf(a), requestOf(b)]).toEqual(["last7d", "last8d"]);
    await planner.outcome("unplanned", digest(9), compute);
    expect(seen).toEqual([true, false]);
  });
});
