import { describe, expect, it } from "vitest";
import type { InsightsResult } from "../../src/analytics/types.ts";
import { computeDigest, enumerateDays, parseRange } from "../../src/insights/index.ts";

const range = parseRange("2026-11-01..2026-11-07", { now: new Date("2026-11-21T12:00:00Z"), tz: "UTC" });
const days = enumerateDays(range.from, range.to);

function result(overrides: Partial<InsightsResult["summary"]> = {}): InsightsResult {
  return {
    dailyMetric: days.map((d, i) => ({ timeStamp: `${d}T00:00:00`, findings: 10 + i, violations: i })),
    dailyActivity: days.map((d) => ({ timeStamp: `${d}T00:00:00`, fixedViolations: 1, mergedViolations: 2 })),
    summary: {
      findings: { previous: 80, current: 91 },
      violations: { previous: 25, current: 21 },
      fixes: 7,
      mergedViolations: 14,
      ...overrides,
    },
  };
}

describe("computeDigest", () => {
  it("computes deltas, fix rate, net change, series and trend", () => {
    const d = computeDigest(result(), range);
    expect(d.range).toBe(range);
    expect(d.findings).toMatchObject({ change: 11, direction: "up", sentiment: "bad" });
    expect(d.findings.pct).toBeCloseTo(13.75);
    expect(d.violations).toMatchObject({ change: -4, pct: -16, direction: "down", sentiment: "good" });
    expect(d.fixes).toBe(7);
    expect(d.mergedViolations).toBe(14);
    expect(d.fixRate).toBeCloseTo(7 / 28);
    expect(d.netChange).toBe(14);
    expect(d.series).toHaveLength(7);
    expect(d.seriesCheck.ok).toBe(true);
    expect(d.trend.peak).toEqual({ day: "2026-11-07", value: 6 });
    expect(d.trend.quietest).toEqual({ day: "2026-11-01", value: 0 });
    expect(d.trend.sparkline).toHaveLength(7);
  });

  it("has no fix rate when nothing was found or fixed, and 'new' violations", () => {
    const none = computeDigest(result({ violations: { previous: 0, current: 0 }, fixes: 0 }), range);
    expect(none.fixRate).toBeNull();
    expect(none.netChange).toBe(0);
    expect(none.violations).toMatchObject({ pct: 0, direction: "flat", isNew: false });
    const fresh = computeDigest(result({ violations: { previous: 0, current: 3 }, fixes: 3 }), range);
    expect(fresh.violations).toMatchObject({ pct: null, isNew: true });
    expect(fresh.fixRate).toBe(0.5);
  });

  it("stays finite with MAX_SAFE_INTEGER everywhere", () => {
    const max = Number.MAX_SAFE_INTEGER;
    const d = computeDigest(
      result({
        findings: { previous: 1, current: max },
        violations: { previous: max, current: max },
        fixes: max,
      }),
      range,
    );
    for (const n of [d.findings.pct, d.violations.pct, d.fixRate, d.netChange])
      expect(Number.isFinite(n)).toBe(true);
    expect(d.fixRate).toBe(0.5);
  });

  it("repairs a broken series and flags it", () => {
    const broken = result();
    broken.dailyMetric = broken.dailyMetric.slice(2).reverse();
    const d = computeDigest(broken, range);
    expect(d.series.map((p) => p.day)).toEqual(days);
    expect(d.series[0]?.violations).toBeNull();
    expect(d.seriesCheck).toMatchObject({ ok: false, unsorted: true, missingDays: days.slice(0, 2) });
    expect(d.trend.sparkline.startsWith("  ")).toBe(true);
  });
});
