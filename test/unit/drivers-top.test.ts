import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Contribution, computeDrivers, type Slice } from "../../src/insights/drivers.ts";
import {
  MEASURES,
  type Measure,
  type MeasureTotals,
  type PeriodPair,
} from "../../src/insights/period-totals.ts";

/**
 * The breakdown names its top rows without building a row per slice. The rows it names must be the
 * ones a stable sort of every slice (by change, then label; ties in both in slice order) puts first.
 * The oracle below is that sort, written out here.
 */
function sortedTop(slices: readonly Slice[], measure: Measure, top: number) {
  const rows = slices.map((s) => ({ s, change: s.totals[measure].current - s.totals[measure].previous }));
  const byLabel = (a: Slice, b: Slice) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
  const up = rows
    .filter((r) => r.change > 0)
    .sort((a, b) => b.change - a.change || byLabel(a.s, b.s))
    .slice(0, top);
  const down = rows
    .filter((r) => r.change < 0)
    .sort((a, b) => a.change - b.change || byLabel(a.s, b.s))
    .slice(0, top);
  return { up: up.map((r) => r.s.key), down: down.map((r) => r.s.key) };
}

const pair = fc.record({ current: fc.integer({ min: 0, max: 4 }), previous: fc.integer({ min: 0, max: 4 }) });
const slices = fc
  .array(
    fc.record({
      dimension: fc.constantFrom("group" as const, "scanner" as const),
      label: fc.constantFrom("a/*", "b/*", "c/*", "SCA"),
      totals: fc.record({ violations: pair, findings: pair, fixes: pair }),
    }),
    { maxLength: 40 },
  )
  // Keys tell rows apart (labels repeat on purpose: ties in change and label keep slice order).
  .map((list) => list.map((s, i): Slice => ({ ...s, key: `k${i}` })));

const sum = (list: readonly Slice[], m: Measure): PeriodPair => ({
  current: list.reduce((n, s) => n + s.totals[m].current, 0),
  previous: list.reduce((n, s) => n + s.totals[m].previous, 0),
});

describe("drivers: the named rows", () => {
  it("are the first rows of a stable sort of every slice, and the rows still add up to the total", () => {
    fc.assert(
      fc.property(
        slices,
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: -3, max: 3 }),
        (list, top, extra) => {
          const total = Object.fromEntries(
            MEASURES.map((m) => {
              const s = sum(list, m);
              return [m, { current: s.current + Math.max(0, extra), previous: s.previous }];
            }),
          ) as MeasureTotals;
          const drivers = computeDrivers({ total, slices: list, top });
          for (const b of drivers.breakdowns) {
            const ofDimension = list.filter((s) => s.dimension === b.dimension);
            const expected = sortedTop(ofDimension, b.measure, top);
            expect({ up: b.up.map((c) => c.key), down: b.down.map((c) => c.key) }).toEqual(expected);
            const rows: Contribution[] = [...b.up, ...b.down, ...(b.other ? [b.other] : [])];
            expect(rows.reduce((n, r) => n + r.change, 0)).toBe(b.total.change);
            expect(b.slices).toBe(ofDimension.length);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
