import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, isoWeekday } from "../../src/insights/days.ts";
import { completenessOf, DEFAULT_GAP_RULE, findGaps, type GapContext } from "../../src/insights/gaps.ts";
import { partialFrom } from "../../src/insights/partial-day.ts";
import type { DayPoint } from "../../src/insights/types.ts";
import { rng, seriesOf, specOf } from "./fixtures/activity.ts";

const LAST = "2026-11-21"; // a Saturday
const N = 120;
const ctx = (partial: string | null = null): GapContext => ({
  periods: {
    from: addDays(LAST, -29),
    to: LAST,
    previousFrom: addDays(LAST, -59),
    previousTo: addDays(LAST, -30),
  },
  partialFrom: partial,
});

/** A flat series: `perDay(day index, weekday)` activity, all of it as findings. */
function flat(perDay: (i: number, weekday: number) => number | null, n = N): DayPoint[] {
  return Array.from({ length: n }, (_, i) => {
    const day = addDays(LAST, i - (n - 1));
    const v = perDay(i, isoWeekday(day));
    return {
      day,
      findings: v,
      violations: v === null ? null : Math.floor(v / 2),
      fixed: v === null ? null : 0,
      merged: v === null ? null : 0,
    };
  });
}
const scanner = (points: DayPoint[]) => ({ dimension: "scanner" as const, key: "sca", label: "SCA", points });

describe("the data-gap rule", () => {
  it("flags a busy scanner that falls silent, from the first silent day, as ongoing", () => {
    const points = flat((i) => (i >= N - 3 ? 0 : 100));
    const [gap, ...rest] = findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx());
    expect(rest).toEqual([]);
    expect(gap).toMatchObject({
      key: "sca",
      from: addDays(LAST, -2),
      to: LAST,
      ongoing: true,
      days: 3,
      current: true,
    });
    expect(gap?.expected).toBe(300);
  });

  it("reports a silence that ended, and in which period it fell", () => {
    const points = flat((i) => (i >= N - 40 && i < N - 36 ? 0 : 100));
    const gaps = findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx());
    expect(gaps).toMatchObject([
      { from: addDays(LAST, -39), to: addDays(LAST, -36), ongoing: false, current: false, previous: true },
    ]);
    expect(completenessOf(gaps, ctx().periods, null)).toMatchObject({
      currentIncomplete: false,
      previousIncomplete: true,
    });
  });

  it("does not count today so far, nor a day the service left out, as silence", () => {
    const today = flat((i) => (i === N - 1 ? 0 : 100));
    expect(findGaps([scanner(today)], DEFAULT_GAP_RULE, ctx(LAST))).toEqual([]);
    // Yesterday silent + today partial and silent: one complete silent day is not enough.
    const two = flat((i) => (i >= N - 2 ? 0 : 100));
    expect(findGaps([scanner(two)], DEFAULT_GAP_RULE, ctx(LAST))).toEqual([]);
    const missing = flat((i) => (i === N - 2 ? null : i >= N - 3 ? 0 : 100));
    expect(findGaps([scanner(missing)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("does not flag a quiet slice's empty weekend, a rollout, a sporadic or a weekly slice", () => {
    const weekends = flat((_, w) => (w >= 6 ? 0 : 12));
    const rollout = flat((i) => (i < N - 10 ? 0 : 500));
    const sporadic = flat((i) => (i % 3 === 0 ? 0 : 300));
    const weekly = flat((_, w) => (w === 1 ? 900 : 0));
    const quietish = flat((i) => (i >= N - 2 ? 0 : 10)); // two silent days predict 20 < 30
    for (const points of [weekends, rollout, sporadic, weekly, quietish])
      expect(findGaps([scanner(points)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("judges by weekday: a silent Sat–Sun of a weekday-heavy group waits for Monday", () => {
    const base = (w: number) => (w >= 6 ? 8 : 40);
    // LAST is a Saturday: silent Sat + Sun a week earlier, back on Monday → predicted 16: not flagged.
    const weekend = flat((i, w) => (i === N - 8 || i === N - 7 ? 0 : base(w)));
    expect(isoWeekday(addDays(LAST, -7))).toBe(6);
    expect(findGaps([scanner(weekend)], DEFAULT_GAP_RULE, ctx())).toEqual([]);
    // Silent through Monday too: 8 + 8 + 40 = 56 ≥ 30.
    const through = flat((i, w) => (i >= N - 8 && i <= N - 6 ? 0 : base(w)));
    expect(findGaps([scanner(through)], DEFAULT_GAP_RULE, ctx())).toMatchObject([{ days: 3, expected: 56 }]);
  });

  it("takes its thresholds as parameters", () => {
    const points = flat((i) => (i >= N - 2 ? 0 : 10));
    expect(findGaps([scanner(points)], { ...DEFAULT_GAP_RULE, minExpected: 20 }, ctx())).toHaveLength(1);
    expect(findGaps([scanner(points)], { ...DEFAULT_GAP_RULE, minDays: 3, minExpected: 20 }, ctx())).toEqual(
      [],
    );
    const early = flat((i) => (i < 10 || i >= N - 3 ? 0 : 100));
    // A silence with too short a history before it is not judged.
    expect(findGaps([scanner(early.slice(N - 13))], DEFAULT_GAP_RULE, ctx())).toEqual([]);
  });

  it("marks today, or the UTC day when that is earlier, as partial", () => {
    expect(partialFrom(new Date("2026-11-21T20:30:00Z"), "Pacific/Auckland")).toBe("2026-11-21");
    expect(partialFrom(new Date("2026-11-22T01:00:00Z"), "America/Los_Angeles")).toBe("2026-11-21");
    expect(partialFrom(new Date("2026-11-21T12:00:00Z"), "UTC")).toBe("2026-11-21");
    const periods = ctx().periods;
    expect(completenessOf([], periods, LAST).partialFrom).toBe(LAST);
    expect(completenessOf([], periods, addDays(LAST, 1)).partialFrom).toBeNull();
    expect(completenessOf([], { ...periods, from: LAST }, addDays(LAST, -1)).partialFrom).toBe(LAST);
  });
});

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
        const gaps = findGaps(series, DEFAULT_GAP_RULE, ctx(a.partial === null ? null : LAST));
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
          const gaps = findGaps(series, DEFAULT_GAP_RULE, ctx(a.partial === null ? null : LAST));
          expect(gaps.map((g) => [g.key, g.from, g.ongoing])).toEqual([
            ["planted", points[start]?.day, ongoing],
          ]);
        },
      ),
      { numRuns: 2_000, seed: 29 },
    );
  });
});
