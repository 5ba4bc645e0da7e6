import { describe, expect, it } from "vitest";
import { judgedStorm, NOISY_RUNS, STORM_BOUND, STORM_SPREAD, type StormRow } from "../bench/storm/section.ts";

/**
 * The bench's one verdict policy for ratio targets: a storm clear of its bound by more than the spread
 * between runs is judged on its run; one within it is run again to five runs and judged on the median.
 */

const row = (ratio: number, tag = ""): StormRow =>
  ({
    ratio,
    subscriptions: 2_000,
    workspaces: 200,
    subsPerChannel: 1,
    concurrency: 50,
    tag,
  }) as unknown as StormRow;

describe("a storm's ratio verdict", () => {
  it("takes a run clear of the bound by more than the spread as it is, running nothing again", async () => {
    let again = 0;
    for (const r of [STORM_BOUND + STORM_SPREAD + 0.01, STORM_BOUND - STORM_SPREAD - 0.01]) {
      const out = await judgedStorm(row(r), async () => {
        again++;
        return row(0);
      });
      expect(out.ratio).toBe(r);
      expect(out.ratios).toBeUndefined();
    }
    expect(again).toBe(0);
  });

  it("runs a ratio within the noise again to five runs and gives the median run, with every ratio", async () => {
    const next = [0.9, 0.7, 0.85, 0.74];
    const out = await judgedStorm(row(0.78, "first"), async () => row(next.shift() as number, "again"));
    expect(next).toEqual([]);
    expect(out.ratios).toEqual([0.78, 0.9, 0.7, 0.85, 0.74]);
    expect(out.ratios).toHaveLength(NOISY_RUNS);
    // The median of 0.7, 0.74, 0.78, 0.85, 0.9 is the first run's 0.78: its row is the one reported.
    expect(out.ratio).toBe(0.78);
    expect((out as unknown as { tag: string }).tag).toBe("first");
  });
});
