import { describe, expect, it } from "vitest";
import type { DayPoint } from "../../src/insights/index.ts";
import { addDays, bucketValues, computeTrend, MAX_SPARK_WIDTH, sparkline } from "../../src/insights/index.ts";

const points = (violations: (number | null)[], from = "2026-11-01"): DayPoint[] =>
  violations.map((v, i) => ({ day: addDays(from, i), findings: v, violations: v, fixed: 0, merged: 0 }));

describe("sparkline", () => {
  it.each([
    ["rising", [0, 1, 2, 3, 4, 5, 6, 7], "▁▂▃▄▅▆▇█"],
    ["gaps are spaces", [0, 5, null, 10], "▁▅ █"],
    ["all zero is the lowest bar", [0, 0, 0], "▁▁▁"],
    ["all gaps", [null, null], "  "],
    ["small but non-zero is above zero", [0, 1, 1000], "▁▂█"],
    ["flat non-zero is full height", [4, 4], "██"],
    ["empty", [], ""],
    ["huge values stay finite", [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER / 2, 0], "█▅▁"],
  ])("%s", (_what, values, expected) => {
    expect(sparkline(values)).toBe(expected);
  });

  it("keeps one char per day up to the cap", () => {
    expect(sparkline(Array.from({ length: 60 }, (_, i) => i))).toHaveLength(60);
  });

  it.each([
    [61, 31],
    [90, 45],
    [365, 53],
    [366, 53],
  ])("buckets %d days into %d chars (≤ 60)", (days, chars) => {
    const line = sparkline(Array.from({ length: days }, (_, i) => i % 9));
    expect(line).toHaveLength(chars);
    expect(line.length).toBeLessThanOrEqual(MAX_SPARK_WIDTH);
  });

  it("a bucket sums its days and is a gap only when all its days are gaps", () => {
    expect(bucketValues([1, 2, null, null, null, null, 4, 5], 3)).toEqual([3, null, 9]);
    expect(bucketValues([1, null, null, null, 2], 3)).toEqual([1, null, 2]);
    expect(sparkline([1, 2, null, null, null, null, 4, 5], 3)).toBe("▄ █");
  });
});

describe("computeTrend", () => {
  it("finds peak and quietest, ignoring gaps, earliest on ties", () => {
    const t = computeTrend(points([3, null, 9, 1, 9, null, 1]));
    expect(t.peak).toEqual({ day: "2026-11-03", value: 9 });
    expect(t.quietest).toEqual({ day: "2026-11-04", value: 1 });
    expect(t.sparkline).toBe("▄ █▂█ ▂");
  });

  it("a gap is never the quietest day", () => {
    const t = computeTrend(points([null, 5, 6]));
    expect(t.quietest).toEqual({ day: "2026-11-02", value: 5 });
  });

  it("is empty for an all-gap or empty series", () => {
    expect(computeTrend(points([null, null]))).toEqual({ peak: null, quietest: null, sparkline: "  " });
    expect(computeTrend([])).toEqual({ peak: null, quietest: null, sparkline: "" });
  });

  it("all zero: peak and quietest are the first day", () => {
    const t = computeTrend(points([0, 0, 0]));
    expect(t.peak?.day).toBe("2026-11-01");
    expect(t.quietest?.day).toBe("2026-11-01");
    expect(t.sparkline).toBe("▁▁▁");
  });
});
