import { describe, expect, it } from "vitest";
import { addDays, dayNumber, daysInRange, isValidDay } from "../../sandbox/analytics/days.ts";
import { uuidFrom } from "../../sandbox/analytics/hash.ts";
import {
  buildAccount,
  computeInsights,
  DEMO_API_KEY,
  dailyCounts,
  SECOND_API_KEY,
  warmCounts,
} from "../../sandbox/analytics/index.ts";
import { resolveRange } from "../../sandbox/analytics/range.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const demo = buildAccount({ apiKey: DEMO_API_KEY });

describe("days", () => {
  it("accepts real calendar days only", () => {
    for (const ok of ["2026-02-28", "2024-02-29", "2026-12-31"]) expect(isValidDay(ok), ok).toBe(true);
    for (const bad of [
      "2026-02-30",
      "2025-02-29",
      "yesterday",
      "2026-2-3",
      "2026-13-01",
      "2026-01-01T00:00:00",
      "",
      20260101,
    ]) {
      expect(isValidDay(bad), String(bad)).toBe(false);
    }
  });

  it("does arithmetic across month, leap day and year ends", () => {
    expect(addDays("2024-02-28", 1)).toBe("2024-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2026-03-28", 2)).toBe("2026-03-30"); // across Europe's DST change: still whole days
    expect(addDays("2024-03-01", -366)).toBe("2023-03-01");
    expect(dayNumber("1970-01-02")).toBe(1);
    expect(daysInRange("2026-04-02", "2026-03-28")).toEqual([]);
    expect(daysInRange("2026-04-02", "2026-04-02")).toEqual(["2026-04-02"]);
    // Stepped through two leap days and back to the one-day-at-a-time definition.
    const long = daysInRange("2023-12-30", "2026-03-02");
    expect(long).toEqual(Array.from({ length: long.length }, (_, i) => addDays("2023-12-30", i)));
    expect(long).toHaveLength(dayNumber("2026-03-02") - dayNumber("2023-12-30") + 1);
    expect(daysInRange("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(daysInRange("2026-03-28", "2026-04-02")).toEqual([
      "2026-03-28",
      "2026-03-29",
      "2026-03-30",
      "2026-03-31",
      "2026-04-01",
      "2026-04-02",
    ]);
  });
});

describe("resolveRange", () => {
  it("defaults toDay to today and fromDay to toDay − 6", () => {
    expect(resolveRange(undefined, undefined, "2026-03-03")).toEqual({
      from: "2026-02-25",
      to: "2026-03-03",
      days: 7,
    });
    expect(resolveRange(null, "2026-01-03", "2026-03-03")).toEqual({
      from: "2025-12-28",
      to: "2026-01-03",
      days: 7,
    });
  });

  it("allows 366 days and refuses 367, inverted ranges and a bad clock", () => {
    expect(resolveRange("2024-01-01", "2024-12-31", "2026-01-01").days).toBe(366);
    expect(() => resolveRange("2024-01-01", "2025-01-01", "x")).toThrow(/367 days/);
    expect(() => resolveRange("2026-01-02", "2026-01-01", "x")).toThrow(/after/);
    expect(() => resolveRange(undefined, undefined, "not-a-day")).toThrow(/not a date/);
  });
});

describe("accounts", () => {
  it("gives the demo a realistic nested catalogue with UUID values", () => {
    expect(demo.assets.length).toBeGreaterThanOrEqual(30);
    expect(demo.assets.length).toBeLessThanOrEqual(40);
    expect(demo.scanners.length).toBeGreaterThanOrEqual(4);
    expect(demo.scanners.length).toBeLessThanOrEqual(6);
    const names = demo.assets.map((a) => a.displayValue);
    expect(names).toEqual(
      expect.arrayContaining(["payments / api", "payments / web", "platform / auth-service"]),
    );
    expect(names.filter((n) => n.includes(" / ")).length).toBeGreaterThan(25);
    for (const a of demo.assets) expect(a.value).toMatch(UUID);
    expect(new Set(demo.assets.map((a) => a.value)).size).toBe(demo.assets.length);
  });

  it("is deterministic per key and differs between keys", () => {
    expect(buildAccount({ apiKey: DEMO_API_KEY })).toEqual(demo);
    const second = buildAccount({ apiKey: SECOND_API_KEY });
    const parents = (acc: typeof demo) => new Set(acc.assets.map((a) => a.displayValue.split(" / ")[0]));
    expect([...parents(second)].some((p) => parents(demo).has(p))).toBe(false);
    expect(second.scanners).not.toEqual(demo.scanners);
    expect(buildAccount({ apiKey: "k1" }).assets).not.toEqual(buildAccount({ apiKey: "k2" }).assets);
  });

  it("builds large accounts with unique names and ids", () => {
    const big = buildAccount({ apiKey: "big-account", assetCount: 500, scannerCount: 3 });
    expect(big.assets).toHaveLength(500);
    expect(big.scanners).toHaveLength(3);
    expect(new Set(big.assets.map((a) => a.displayValue)).size).toBe(500);
    expect(new Set(big.assets.map((a) => a.value)).size).toBe(500);
    for (const a of big.assets) expect(a.displayValue).toMatch(/^[a-z-]+ \/ [a-z0-9-]+$/);
  });

  it("derives UUID-shaped ids from text", () => {
    expect(uuidFrom("a")).toMatch(UUID);
    expect(uuidFrom("a")).toBe(uuidFrom("a"));
    expect(uuidFrom("a")).not.toBe(uuidFrom("b"));
  });
});

describe("dailyCounts", () => {
  const days = daysInRange("2026-09-01", "2026-10-31");

  it("keeps every cell plausible: violations ≤ findings, fixed and merged ≤ violations", () => {
    let nonZero = 0;
    for (const asset of demo.assets) {
      for (const scanner of demo.scanners) {
        for (const day of days.slice(0, 14)) {
          const c = dailyCounts(demo, day, [asset.value], [scanner.value]);
          expect(c.violations).toBeLessThanOrEqual(c.findings);
          expect(c.fixedViolations).toBeLessThanOrEqual(c.violations);
          expect(c.mergedViolations).toBeLessThanOrEqual(c.violations);
          if (c.findings > 0) nonZero++;
        }
      }
    }
    expect(nonZero).toBeGreaterThan(1000);
  });

  it("sums over assets: the unfiltered day equals the sum of single-asset days", () => {
    for (const day of days.slice(0, 5)) {
      const sum = { findings: 0, violations: 0, fixedViolations: 0, mergedViolations: 0 };
      for (const asset of demo.assets) {
        const c = dailyCounts(demo, day, [asset.value]);
        sum.findings += c.findings;
        sum.violations += c.violations;
        sum.fixedViolations += c.fixedViolations;
        sum.mergedViolations += c.mergedViolations;
      }
      expect(dailyCounts(demo, day)).toEqual(sum);
      expect(dailyCounts(demo, day, [], [])).toEqual(sum);
    }
  });

  it("reads a scanner filter the same whether or not the assets are listed, and sums over scanners", () => {
    const everyAsset = demo.assets.map((a) => a.value);
    for (const day of days.slice(0, 5)) {
      const sum = { findings: 0, violations: 0, fixedViolations: 0, mergedViolations: 0 };
      for (const scanner of demo.scanners) {
        // Without an asset list the day comes from the per-scanner sums; with one, from each asset.
        const c = dailyCounts(demo, day, undefined, [scanner.value]);
        expect(c).toEqual(dailyCounts(demo, day, everyAsset, [scanner.value]));
        sum.findings += c.findings;
        sum.violations += c.violations;
        sum.fixedViolations += c.fixedViolations;
        sum.mergedViolations += c.mergedViolations;
      }
      expect(dailyCounts(demo, day)).toEqual(sum);
      const two = demo.scanners.slice(0, 2).map((o) => o.value);
      expect(dailyCounts(demo, day, undefined, two)).toEqual(dailyCounts(demo, day, everyAsset, two));
    }
  });

  it("computes days ahead without changing them", () => {
    const warmed = buildAccount({ apiKey: DEMO_API_KEY });
    expect(warmCounts(warmed, days[0]!, days[9]!)).toBe(10);
    for (const day of days.slice(0, 12)) {
      expect(dailyCounts(warmed, day)).toEqual(dailyCounts(buildAccount({ apiKey: DEMO_API_KEY }), day));
      const scanner = [demo.scanners[1]!.value];
      expect(dailyCounts(warmed, day, undefined, scanner)).toEqual(
        dailyCounts(demo, day, undefined, scanner),
      );
    }
  });

  it("keeps an asset filter's days per selection: asked again, the same numbers; another, its own", () => {
    const fresh = () => buildAccount({ apiKey: DEMO_API_KEY });
    const account = fresh();
    const group = account.assets.slice(0, 7).map((a) => a.value);
    const overlapping = account.assets.slice(3, 9).map((a) => a.value);
    const scanner = [account.scanners[0]!.value];
    for (const day of days.slice(0, 6)) {
      const first = dailyCounts(account, day, group);
      // What a caller does with its numbers is not what the next one reads.
      first.findings += 1_000;
      expect(dailyCounts(account, day, group)).toEqual(dailyCounts(fresh(), day, group));
      expect(dailyCounts(account, day, overlapping)).toEqual(dailyCounts(fresh(), day, overlapping));
      expect(dailyCounts(account, day, group, scanner)).toEqual(dailyCounts(fresh(), day, group, scanner));
      expect(dailyCounts(account, day, group, scanner)).not.toEqual(dailyCounts(account, day, group));
    }
  });

  it("ignores duplicate ids and gives zeros for ids the account does not have", () => {
    const id = demo.assets[0]!.value;
    expect(dailyCounts(demo, days[0]!, [id, id])).toEqual(dailyCounts(demo, days[0]!, [id]));
    expect(dailyCounts(demo, days[0]!, ["unknown"])).toEqual({
      findings: 0,
      violations: 0,
      fixedViolations: 0,
      mergedViolations: 0,
    });
    expect(dailyCounts(demo, days[0]!, undefined, ["no-such-scanner"]).findings).toBe(0);
  });

  it("has a weekly rhythm and moves from week to week", () => {
    const weekday = (d: string) => new Date(`${d}T00:00:00Z`).getUTCDay();
    const avg = (list: string[]) => list.reduce((n, d) => n + dailyCounts(demo, d).findings, 0) / list.length;
    const weekends = days.filter((d) => [0, 6].includes(weekday(d)));
    const workdays = days.filter((d) => ![0, 6].includes(weekday(d)));
    expect(avg(workdays)).toBeGreaterThan(2 * avg(weekends));
    const weekly = [0, 1, 2, 3, 4, 5, 6, 7].map((w) => avg(days.slice(w * 7, w * 7 + 7)));
    expect(Math.max(...weekly) / Math.min(...weekly)).toBeGreaterThan(1.05);
  });

  // How fast is the bench's business (the emulator serves every storm); a timed test only measures the machine's load.
  it("computes a 366-day query over 500 assets × 5 scanners", () => {
    const big = buildAccount({ apiKey: "speed", assetCount: 500, scannerCount: 5 });
    const r = computeInsights(big, { fromDay: "2025-11-20", toDay: "2026-11-20" }, "2026-11-20");
    expect(r.dailyMetric).toHaveLength(366);
    expect(r.summary.findings.previous).toBeGreaterThan(0);
  });
});
