import { describe, expect, it } from "vitest";
import type { SliceQuery, SliceSeries } from "../../src/analytics/types.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { computeDriversMany, type DriversBase } from "../../src/digests/drivers-service.ts";
import { addDays, enumerateDays } from "../../src/insights/days.ts";
import { byImportance, DEFAULT_GAP_RULE, findGaps } from "../../src/insights/gaps.ts";
import type { Periods } from "../../src/insights/period-totals.ts";

/**
 * How far back the drivers ask for a silent slice's history. The service stand-in here answers every
 * slice with a fixed daily series (one per scanner), so which days each request asked for, and what
 * the rule finds on the whole year of each series, can be compared with the drivers' answer.
 */

const LAST = "2026-11-20";
const PERIODS: Periods = {
  from: addDays(LAST, -6),
  to: LAST,
  previousFrom: addDays(LAST, -13),
  previousTo: addDays(LAST, -7),
};
/** The first day of the drivers' own fetch: the rule's baseline before the previous period. */
const WINDOW = addDays(PERIODS.previousFrom, -DEFAULT_GAP_RULE.baselineDays);
/** `sca` falls silent 10 days into the window; `secrets` has been silent since 40 days before it. */
const SCA_SILENT = addDays(WINDOW, 10);
const SECRETS_SILENT = addDays(WINDOW, -40);

const SCANNERS = [
  { value: "sast", displayValue: "SAST" },
  { value: "sca", displayValue: "SCA" },
  { value: "secrets", displayValue: "Secrets" },
];

/** The day's findings of a selection: 12 a day, except each silent scanner from its day on. */
function findingsOn(day: string, scannerIds: readonly string[]): number {
  const ids = scannerIds.length > 0 ? scannerIds : SCANNERS.map((s) => s.value);
  let n = 0;
  for (const id of ids) {
    if (id === "sca" && day >= SCA_SILENT) continue;
    if (id === "secrets" && day >= SECRETS_SILENT) continue;
    n += 4;
  }
  return n;
}

function service() {
  const asked: SliceQuery[][] = [];
  const source: SlicesSource = {
    async slices(_key, queries) {
      asked.push([...queries]);
      return queries.map(
        (q): SliceSeries => ({
          dailyMetric: enumerateDays(q.fromDay, q.toDay).map((day) => ({
            timeStamp: `${day}T00:00:00`,
            violations: 1,
            findings: findingsOn(day, q.scannerIds ?? []),
          })),
          dailyActivity: enumerateDays(q.fromDay, q.toDay).map((day) => ({
            timeStamp: `${day}T00:00:00`,
            fixedViolations: 0,
            mergedViolations: 0,
          })),
        }),
      );
    },
  };
  return { source, asked };
}

const base: DriversBase = {
  apiKey: "key-history",
  assetIds: [],
  scannerIds: [],
  assets: [],
  scanners: SCANNERS,
  partialFrom: LAST,
};

describe("a silent slice's history", () => {
  it("is asked back only as far as its silence's baseline, or the year when the silence began before the window", async () => {
    const { source, asked } = service();
    const [outcome] = await computeDriversMany({ source }, base, [PERIODS]);
    const [first, ...history] = asked;
    // The digest's own days for every slice, then the history of the two silent scanners only, in
    // one request however the source batches.
    expect(first?.every((q) => q.fromDay === WINDOW && q.toDay === LAST)).toBe(true);
    expect(history).toHaveLength(1);
    const ranges = history
      .flat()
      .map((q) => [q.scannerIds?.join(","), q.fromDay, q.toDay])
      .sort();
    expect(ranges).toEqual([
      ["sca", addDays(SCA_SILENT, -DEFAULT_GAP_RULE.baselineDays), addDays(WINDOW, -1)],
      ["secrets", addDays(LAST, -365), addDays(WINDOW, -1)],
    ]);
    // The gaps are those the rule finds on each scanner's whole year.
    const year = (id: string) => ({
      dimension: "scanner" as const,
      key: id,
      label: SCANNERS.find((s) => s.value === id)?.displayValue ?? id,
      points: enumerateDays(addDays(LAST, -365), LAST).map((day) => ({
        day,
        findings: findingsOn(day, [id]),
        violations: 1,
        fixed: 0,
        merged: 0,
      })),
    });
    const expected = byImportance(
      findGaps(["sast", "sca", "secrets"].map(year), DEFAULT_GAP_RULE, {
        periods: PERIODS,
        partialFrom: LAST,
      }),
    );
    // Both silences are outages: the one the short history judges and the one the year judges.
    expect(expected.map((g) => [g.key, g.from]).sort()).toEqual([
      ["sca", SCA_SILENT],
      ["secrets", SECRETS_SILENT],
    ]);
    expect(outcome?.view.gaps).toEqual(expected);
  });
});
