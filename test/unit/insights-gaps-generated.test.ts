import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import {
  type ActivitySeries,
  DEFAULT_GAP_RULE,
  findGaps,
  type GapContext,
  historyDaysNeeded,
  indexGaps,
} from "../../src/insights/gaps.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import { rng, seriesOf, specOf } from "./fixtures/activity.ts";
import { ctx, LAST, N } from "./fixtures/gap-window.ts";

/**
 * The data-gap rule on thousands of generated accounts (property tests, CPU-heavy), apart from the
 * rule's own cases in insights-gaps.test.ts so the fixed-instant CI step can run those quickly.
 */

/**
 * The drivers' way to the gaps: each slice's series only from the rule's baseline before the previous
 * period; for the slices with a silence near that day, the days before it that the silence's baseline
 * reads (`historyDaysNeeded`), or the whole history (here, the generated 120 days) when a silence
 * starts at that day. It must find exactly what the rule finds on the whole history; `stats` counts
 * the slices that needed a few more days and those that needed the whole history.
 */
const stats = { slices: 0, near: 0, history: 0 };
function driversPathGaps(series: ActivitySeries[], c: GapContext) {
  const windowStart = addDays(c.periods.previousFrom, -DEFAULT_GAP_RULE.baselineDays);
  const assembled = series.map((s) => {
    const recent = { ...s, points: s.points.filter((p) => p.day >= windowStart) };
    stats.slices++;
    const need = historyDaysNeeded(indexGaps(recent, c.partialFrom), 0, DEFAULT_GAP_RULE, c.periods);
    if (need === null) return recent;
    if (Number.isFinite(need)) {
      stats.near++;
      const from = addDays(windowStart, -need);
      return { ...s, points: s.points.filter((p) => p.day >= from) };
    }
    stats.history++;
    return s;
  });
  const gaps = findGaps(assembled, DEFAULT_GAP_RULE, c);
  expect(gaps).toEqual(findGaps(series, DEFAULT_GAP_RULE, c));
  return gaps;
}

/** Uniform draws from a seed: fast-check's own doubles crowd at 0 and 1, which would make most slices alike. */
const uniforms = (seed: number, n = 9) => {
  const r = rng(seed);
  return Array.from({ length: n }, r);
};

/** A normal account: 3–12 slices, 120 days, today partial half of the time. */
const accountArb = fc.record({
  slices: fc.integer({ min: 3, max: 12 }),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  partial: fc.option(fc.integer({ min: 0, max: 99 }), { nil: null }),
});

type Account = typeof accountArb extends fc.Arbitrary<infer T> ? T : never;

function accountSeries(a: Account) {
  return Array.from({ length: a.slices }, (_, k) => {
    const points = seriesOf(specOf(uniforms(a.seed * 13 + k), a.seed + k), LAST, N, a.seed * 31 + k);
    if (a.partial !== null) {
      // Today so far: a share of a day's counts, zero included.
      const p = points[N - 1] as DayPoint;
      const cut = (v: number | null) => (v === null ? null : Math.floor((v * (a.partial as number)) / 100));
      points[N - 1] = {
        day: p.day,
        findings: cut(p.findings),
        violations: cut(p.violations),
        fixed: cut(p.fixed),
        merged: cut(p.merged),
      };
    }
    return { dimension: "group" as const, key: `g${k}`, label: `g${k}/*`, points };
  });
}

describe("the data-gap rule on generated accounts", () => {
  it("raises no outage flag on 10,000 normal accounts", () => {
    let slices = 0;
    fc.assert(
      fc.property(accountArb, (a) => {
        const series = accountSeries(a);
        slices += series.length;
        const gaps = driversPathGaps(series, ctx(a.partial === null ? null : LAST));
        expect(gaps).toEqual([]);
      }),
      { numRuns: 10_000, seed: 17 },
    );
    expect(slices).toBeGreaterThan(30_000);
    // 75,000 generated 120-day series: about 15 s of CPU alone, several times that on a shared
    // machine, so more than the default time.
  }, 120_000);

  it("flags every planted outage, from its first day, and nothing else", () => {
    fc.assert(
      fc.property(
        accountArb,
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 57 }),
        fc.integer({ min: 2, max: 14 }),
        fc.boolean(),
        (a, busy, startBack, length, ongoing) => {
          const series = accountSeries(a);
          const lastComplete = a.partial === null ? N - 1 : N - 2;
          // The silence: from `start`, through the last complete day when ongoing, else `length` days…
          const start = N - 3 - startBack;
          const end = ongoing ? lastComplete : Math.min(start + length - 1, lastComplete - 1);
          const days = end - start + 1;
          const weekdays = Array.from({ length: days }, (_, i) =>
            isoWeekday(addDays(LAST, start + i - (N - 1))),
          ).filter((w) => w <= 5).length;
          // …of two or more days with a weekday in them, or three or more (a busy slice's weekend
          // alone predicts too little to tell from a quiet one).
          fc.pre(days >= 3 || (days >= 2 && weekdays >= 1));
          const points = seriesOf(specOf(uniforms(busy), busy, true), LAST, N, a.seed * 7 + 1);
          for (let i = start; i <= (ongoing ? N - 1 : end); i++) {
            const p = points[i] as DayPoint;
            points[i] = { day: p.day, findings: 0, violations: 0, fixed: 0, merged: 0 };
          }
          series.push({ dimension: "group", key: "planted", label: "planted/*", points });
          const gaps = driversPathGaps(series, ctx(a.partial === null ? null : LAST));
          expect(gaps.map((g) => [g.key, g.from, g.ongoing])).toEqual([
            ["planted", points[start]?.day, ongoing],
          ]);
        },
      ),
      { numRuns: 2_000, seed: 29 },
    );
  });
});

describe("the drivers' shorter series", () => {
  it("find the same gaps as the whole history when silences start before the previous period or the window", () => {
    const before = { ...stats };
    let found = 0;
    fc.assert(
      fc.property(
        accountArb,
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        // From day 1 (long before the window) to just before the previous period, and across it.
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 90 }),
        fc.boolean(),
        (a, busy, start, length, ongoing) => {
          const series = accountSeries(a);
          const points = seriesOf(specOf(uniforms(busy), busy, true), LAST, N, a.seed * 7 + 1);
          const end = ongoing ? N - 1 : Math.min(start + length - 1, N - 1);
          for (let i = start; i <= end; i++) {
            const p = points[i] as DayPoint;
            points[i] = { day: p.day, findings: 0, violations: 0, fixed: 0, merged: 0 };
          }
          series.push({ dimension: "group", key: "planted", label: "planted/*", points });
          found += driversPathGaps(series, ctx(a.partial === null ? null : LAST)).length;
        },
      ),
      { numRuns: 2_000, seed: 31 },
    );
    // Both ways were taken, and the planted silences were judged (some found, as on the whole history).
    expect(stats.history - before.history).toBeGreaterThan(100);
    expect(stats.near - before.near).toBeGreaterThan(100);
    expect(stats.history - before.history).toBeLessThan(stats.slices - before.slices);
    expect(found).toBeGreaterThan(100);
  }, 120_000);
});
