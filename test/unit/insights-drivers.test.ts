import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assetIdsOfGroups, groupAssets, groupNameOf } from "../../src/insights/asset-groups.ts";
import { type Breakdown, computeDrivers, type Slice, topDriver } from "../../src/insights/drivers.ts";
import { type MeasureTotals, totalsOf } from "../../src/insights/period-totals.ts";

const pair = (current: number, previous: number) => ({ current, previous });
const totals = (v: [number, number], f: [number, number] = [0, 0], x: [number, number] = [0, 0]) => ({
  violations: pair(...v),
  findings: pair(...f),
  fixes: pair(...x),
});

describe("asset groups", () => {
  it("takes the top level of `parent / child` names; a top-level asset is its own group", () => {
    expect(groupNameOf("payments / api")).toEqual({ name: "payments", nested: true });
    expect(groupNameOf("  payments/web ")).toEqual({ name: "payments", nested: true });
    expect(groupNameOf("docs")).toEqual({ name: "docs", nested: false });
    expect(groupNameOf("trailing /")).toEqual({ name: "trailing /", nested: false });
    expect(groupNameOf("   ")).toEqual({ name: "(unnamed)", nested: false });
  });

  it("groups assets, largest first, labels nested groups `name/*`, drops duplicates and out-of-scope ids", () => {
    const assets = [
      { value: "a", displayValue: "payments / api" },
      { value: "b", displayValue: "payments / web" },
      { value: "c", displayValue: "docs" },
      { value: "a", displayValue: "payments / api" },
      { value: "d", displayValue: "web / shop" },
    ];
    expect(groupAssets(assets)).toEqual([
      { name: "payments", label: "payments/*", assetIds: ["a", "b"] },
      { name: "docs", label: "docs", assetIds: ["c"] },
      { name: "web", label: "web/*", assetIds: ["d"] },
    ]);
    expect(groupAssets(assets, new Set(["b", "d"])).map((g) => g.assetIds)).toEqual([["b"], ["d"]]);
    expect(assetIdsOfGroups(assets, ["payments", "nope"])).toEqual(["a", "b"]);
  });
});

describe("computeDrivers", () => {
  const slices: Slice[] = [
    { dimension: "group", key: "payments", label: "payments/*", totals: totals([50, 19], [90, 40], [3, 5]) },
    { dimension: "group", key: "web", label: "web/*", totals: totals([10, 22], [20, 30], [30, 10]) },
    { dimension: "group", key: "docs", label: "docs", totals: totals([5, 4]) },
    { dimension: "group", key: "infra", label: "infra/*", totals: totals([1, 0]) },
    { dimension: "group", key: "data", label: "data/*", totals: totals([2, 3]) },
    { dimension: "scanner", key: "sast", label: "SAST", totals: totals([40, 15]) },
    { dimension: "scanner", key: "sca", label: "SCA", totals: totals([20, 30]) },
  ];
  const total = totals([68, 48], [110, 70], [33, 15]);

  it("names the top contributors both ways and keeps the rest in `other`", () => {
    const d = computeDrivers({ total, slices });
    const byGroup = d.breakdowns.find(
      (b) => b.measure === "violations" && b.dimension === "group",
    ) as Breakdown;
    expect(byGroup.total).toEqual({ current: 68, previous: 48, change: 20 });
    expect(byGroup.up.map((c) => [c.label, c.change])).toEqual([
      ["payments/*", 31],
      ["docs", 1],
      ["infra/*", 1],
    ]);
    expect(byGroup.up[2]?.isNew).toBe(true);
    expect(byGroup.down.map((c) => [c.label, c.change])).toEqual([
      ["web/*", -12],
      ["data/*", -1],
    ]);
    // Every group is named and they cover the total: nothing is left for "other".
    expect(byGroup.other).toBeNull();
    const byScanner = d.breakdowns.find((b) => b.measure === "violations" && b.dimension === "scanner");
    // Two scanners do not cover the total: the rest is "other", not lost.
    expect(byScanner?.other).toMatchObject({ key: null, current: 8, previous: 3, change: 5 });
    expect(topDriver(d, "violations")).toMatchObject({ dimension: "group", key: "payments", change: 31 });
    expect(topDriver(d, "fixes")).toMatchObject({ dimension: "group", key: "web", change: 20 });
  });

  it("has one breakdown per measure and dimension that has slices", () => {
    const d = computeDrivers({ total, slices: slices.filter((s) => s.dimension === "scanner") });
    expect(d.breakdowns.map((b) => `${b.measure}/${b.dimension}`)).toEqual([
      "violations/scanner",
      "findings/scanner",
      "fixes/scanner",
    ]);
    expect(computeDrivers({ total, slices: [] }).breakdowns).toEqual([]);
  });

  const count = fc.integer({ min: 0, max: 1e9 });
  const sliceArb = fc.record({
    dimension: fc.constantFrom("group" as const, "scanner" as const),
    key: fc.string({ maxLength: 6 }),
    label: fc.string({ maxLength: 6 }),
    totals: fc.record({
      violations: fc.record({ current: count, previous: count }),
      findings: fc.record({ current: count, previous: count }),
      fixes: fc.record({ current: count, previous: count }),
    }),
  });

  it("rows always add up to the total, whether or not the slices cover it", () => {
    fc.assert(
      fc.property(
        fc.array(sliceArb, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        fc.array(count, { minLength: 6, maxLength: 6 }),
        (list, covering, top, extra) => {
          // Either the total is the exact sum of each dimension's slices, or an unrelated number.
          const sumOf = (dim: string): MeasureTotals => {
            const t = totals([0, 0]);
            for (const s of list.filter((x) => x.dimension === dim))
              for (const m of ["violations", "findings", "fixes"] as const) {
                t[m].current += s.totals[m].current;
                t[m].previous += s.totals[m].previous;
              }
            return t;
          };
          const total: MeasureTotals = covering
            ? sumOf("group")
            : totals(
                [extra[0] ?? 0, extra[1] ?? 0],
                [extra[2] ?? 0, extra[3] ?? 0],
                [extra[4] ?? 0, extra[5] ?? 0],
              );
          const d = computeDrivers({ total, slices: list, top });
          for (const b of d.breakdowns) {
            const rows = [...b.up, ...b.down, ...(b.other ? [b.other] : [])];
            const sum = (k: "current" | "previous" | "change") => rows.reduce((s, r) => s + r[k], 0);
            expect(sum("change")).toBe(b.total.change);
            expect(sum("current")).toBe(b.total.current);
            expect(sum("previous")).toBe(b.total.previous);
            expect(b.up.length).toBeLessThanOrEqual(top);
            expect(b.down.length).toBeLessThanOrEqual(top);
            expect(
              b.up.every((c, i) => c.change > 0 && (i === 0 || (b.up[i - 1]?.change ?? 0) >= c.change)),
            ).toBe(true);
            expect(
              b.down.every((c, i) => c.change < 0 && (i === 0 || (b.down[i - 1]?.change ?? 0) <= c.change)),
            ).toBe(true);
            const changes = list
              .filter((s) => s.dimension === b.dimension)
              .map((s) => s.totals[b.measure].current - s.totals[b.measure].previous);
            if (b.up[0]) expect(b.up[0].change).toBe(Math.max(...changes));
            if (b.down[0]) expect(b.down[0].change).toBe(Math.min(...changes));
            if (covering && b.dimension === "group" && b.other) {
              // Covering slices: "other" is the unnamed slices, so never a negative count.
              expect(b.other.current).toBeGreaterThanOrEqual(0);
              expect(b.other.previous).toBeGreaterThanOrEqual(0);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("totalsOf", () => {
  it("sums each period's days and skips days outside both", () => {
    const day = (d: string, v: number | null) => ({
      day: d,
      findings: v,
      violations: v,
      fixed: v,
      merged: v,
    });
    const t = totalsOf(
      [day("2026-11-01", 100), day("2026-11-02", 1), day("2026-11-03", 2), day("2026-11-04", null)],
      {
        previousFrom: "2026-11-02",
        previousTo: "2026-11-02",
        from: "2026-11-03",
        to: "2026-11-04",
      },
    );
    expect(t.violations).toEqual({ current: 2, previous: 1 });
    expect(t.fixes).toEqual({ current: 2, previous: 1 });
  });
});
