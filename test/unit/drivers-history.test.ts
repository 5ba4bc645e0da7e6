import { describe, expect, it } from "vitest";
import type { SliceQuery, SliceSeries } from "../../src/analytics/types.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { PERIODS_LEAD_DAYS, WINDOW_LEAD_DAYS } from "../../src/digests/drivers-plan.ts";
import { computeDriversMany, type DriversBase } from "../../src/digests/drivers-service.ts";
import { addDays, enumerateDays, isoWeekday } from "../../src/insights/days.ts";
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
/** The first day of the digest's own days: the rule's baseline before the previous period. */
const WINDOW = addDays(PERIODS.previousFrom, -DEFAULT_GAP_RULE.baselineDays);
/** The drivers ask a week more with it, so a silence that began shortly before it needs no second request. */
const FETCHED = addDays(WINDOW, -WINDOW_LEAD_DAYS);
/**
 * `sca` falls silent 10 days into the window (its baseline reaches 18 days before the window, past
 * the week asked with it); `secrets` has been silent since 40 days before it.
 */
const SCA_SILENT = addDays(WINDOW, 10);
const SECRETS_SILENT = addDays(WINDOW, -40);
/** Silent 24 days into the window: its baseline reaches 4 days before the window, within the week asked. */
const SAST_SILENT = addDays(WINDOW, 24);

/** 366 days back from the last day: where the history of a digest like LONG starts. */
const OLDEST = addDays(LAST, -365);
/** A long digest whose window (the baseline before its previous period) begins 3 days after OLDEST. */
const LONG: Periods = {
  from: addDays(LAST, -166),
  to: LAST,
  previousFrom: addDays(OLDEST, 3 + DEFAULT_GAP_RULE.baselineDays),
  previousTo: addDays(LAST, -167),
};

const SCANNERS = [
  { value: "sast", displayValue: "SAST" },
  { value: "sca", displayValue: "SCA" },
  { value: "secrets", displayValue: "Secrets" },
];

/** The day each scanner falls silent, in the first case. */
const SILENT: Record<string, string> = { sca: SCA_SILENT, secrets: SECRETS_SILENT };

/** Scanners that report nothing on Saturdays and Sundays, in the periods-first cases. */
const WEEKDAYS_ONLY = "weekdays";

/**
 * The day's findings of a selection: 4 a day per scanner, except each silent one from its day on
 * (and, when `silent` names WEEKDAYS_ONLY as a scanner's day, that scanner on every weekend).
 */
function findingsOn(day: string, scannerIds: readonly string[], silent: Record<string, string>): number {
  const ids = scannerIds.length > 0 ? scannerIds : SCANNERS.map((s) => s.value);
  let n = 0;
  for (const id of ids) {
    const from = silent[id];
    if (from === WEEKDAYS_ONLY ? isoWeekday(day) >= 6 : from !== undefined && day >= from) continue;
    n += 4;
  }
  return n;
}

function service(silent: Record<string, string>) {
  const asked: SliceQuery[][] = [];
  const source: SlicesSource = {
    async slices(_key, queries) {
      asked.push([...queries]);
      return queries.map(
        (q): SliceSeries => ({
          dailyMetric: enumerateDays(q.fromDay, q.toDay).map((day) => ({
            timeStamp: `${day}T00:00:00`,
            violations: 1,
            findings: findingsOn(day, q.scannerIds ?? [], silent),
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

/** The gaps the rule finds on each scanner's whole year: what the drivers must find. */
function gapsOnTheYear(silent: Record<string, string>, periods: Periods = PERIODS) {
  const year = (id: string) => ({
    dimension: "scanner" as const,
    key: id,
    label: SCANNERS.find((s) => s.value === id)?.displayValue ?? id,
    points: enumerateDays(addDays(LAST, -365), LAST).map((day) => ({
      day,
      findings: findingsOn(day, [id], silent),
      violations: 1,
      fixed: 0,
      merged: 0,
    })),
  });
  return byImportance(
    findGaps(
      SCANNERS.map((s) => year(s.value)),
      DEFAULT_GAP_RULE,
      { periods, partialFrom: LAST },
    ),
  );
}

const base: DriversBase = {
  apiKey: "key-history",
  assetIds: [],
  scannerIds: [],
  assets: [],
  scanners: SCANNERS,
  partialFrom: LAST,
};

/**
 * Two silent scanners asked from `first`: `sca`, whose baseline reaches before that day, and
 * `secrets`, silent since long before it. Every slice is asked from `first`, then the history of the
 * two alone, in one request however the source batches; and the gaps are the year's.
 */
async function twoSilences(ask: DriversBase, first: string, silent: Record<string, string>) {
  const { source, asked } = service(silent);
  const [outcome] = await computeDriversMany({ source }, ask, [PERIODS]);
  const [head, ...history] = asked;
  expect(head?.every((q) => q.fromDay === first && q.toDay === LAST)).toBe(true);
  expect(history).toHaveLength(1);
  const ranges = history
    .flat()
    .map((q) => [q.scannerIds?.join(","), q.fromDay, q.toDay])
    .sort();
  expect(ranges).toEqual([
    ["sca", addDays(silent.sca as string, -DEFAULT_GAP_RULE.baselineDays), addDays(first, -1)],
    ["secrets", addDays(LAST, -365), addDays(first, -1)],
  ]);
  const expected = gapsOnTheYear(silent);
  // Both silences are outages: the one the short history judges and the one the year judges.
  expect(expected.map((g) => [g.key, g.from]).sort()).toEqual([
    ["sca", silent.sca],
    ["secrets", SECRETS_SILENT],
  ]);
  expect(outcome?.view.gaps).toEqual(expected);
}

describe("a silent slice's history, the windows asked first (an answer someone waits for)", () => {
  it("is asked back only as far as its silence's baseline, or the year when the silence began before the window", async () => {
    await twoSilences(base, FETCHED, SILENT);
  });

  it("costs no second request when its baseline reaches back a week or less, and finds the same gap", async () => {
    const silent = { sast: SAST_SILENT };
    const { source, asked } = service(silent);
    const [outcome] = await computeDriversMany({ source }, base, [PERIODS]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.every((q) => q.fromDay === FETCHED && q.toDay === LAST)).toBe(true);
    const expected = gapsOnTheYear(silent);
    expect(expected.map((g) => [g.key, g.from])).toEqual([["sast", SAST_SILENT]]);
    expect(outcome?.view.gaps).toEqual(expected);
  });

  it("asks the lead no further back than the history the rule may judge, and in no more ranges", async () => {
    // Its baseline begins 3 days after its history, so 3 days of lead are all there is to ask.
    const { source, asked } = service({});
    await computeDriversMany({ source }, base, [LONG]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.every((q) => q.fromDay === OLDEST && q.toDay === LAST)).toBe(true);
  });
});

/** A slot's deliveries ask the periods first: the fewest bytes. */
const periodsFirst: DriversBase = { ...base, firstAsk: "periods" };
/** Asked first in that mode: the periods and two weeks before them, not the whole window. */
const NEAR = addDays(PERIODS.previousFrom, -PERIODS_LEAD_DAYS);

describe("a silent slice's history, the periods asked first (a slot's deliveries)", () => {
  it("asks each slice's periods and two weeks first, then the baseline a silence reaches, or the year when it began before those days", async () => {
    // `sca` falls silent 5 days after the first day asked; `secrets` long before.
    await twoSilences(periodsFirst, NEAR, { sca: addDays(NEAR, 5), secrets: SECRETS_SILENT });
  });

  it("costs no second request for a slice quiet every weekend: the two weekends held before the periods rule its silences out", async () => {
    const silent = { sast: WEEKDAYS_ONLY };
    const { source, asked } = service(silent);
    const [outcome] = await computeDriversMany({ source }, periodsFirst, [PERIODS]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.every((q) => q.fromDay === NEAR && q.toDay === LAST)).toBe(true);
    // The year's judgement agrees: a weekend's silence is no outage. Its weekends are silences the
    // rule looks at (two days each), so the request saved is one the rule could have asked for.
    expect(gapsOnTheYear(silent)).toEqual([]);
    expect(outcome?.view.gaps).toEqual([]);
    // Asked the other way (the windows first), the answer is the same.
    const [windowed] = await computeDriversMany({ source }, base, [PERIODS]);
    expect(windowed).toEqual(outcome);
  });

  it("asks a silence beginning in the periods for its baseline, and finds the gap the year shows", async () => {
    const silent = { sast: addDays(PERIODS.previousFrom, 3) };
    const { source, asked } = service(silent);
    const [outcome] = await computeDriversMany({ source }, periodsFirst, [PERIODS]);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.map((q) => [q.scannerIds?.join(), q.fromDay, q.toDay])).toEqual([
      ["sast", addDays(silent.sast, -DEFAULT_GAP_RULE.baselineDays), addDays(NEAR, -1)],
    ]);
    const expected = gapsOnTheYear(silent);
    expect(expected.map((g) => [g.key, g.from])).toEqual([["sast", silent.sast]]);
    expect(outcome?.view.gaps).toEqual(expected);
  });

  it("asks a bucket of digests with their own ranges from the earliest previous period, and answers each as alone and as the year does", async () => {
    // A slot's subscriptions of one account: 7, 16 and 30 days, one fetch for the three. `sca` falls
    // silent 11 days after the first day asked (its baseline reaches before it: a second request),
    // `secrets` 12 days before the last.
    const lengths = [7, 16, 30];
    const periodsList = lengths.map(
      (days): Periods => ({
        from: addDays(LAST, 1 - days),
        to: LAST,
        previousFrom: addDays(LAST, 1 - 2 * days),
        previousTo: addDays(LAST, -days),
      }),
    );
    const silent = { sca: addDays(LAST, -62), secrets: addDays(LAST, -12) };
    const { source, asked } = service(silent);
    const together = await computeDriversMany({ source }, periodsFirst, periodsList);
    const earliest = addDays(LAST, 1 - 2 * 30 - PERIODS_LEAD_DAYS);
    expect(asked[0]?.every((q) => q.fromDay === earliest && q.toDay === LAST)).toBe(true);
    expect(asked).toHaveLength(2);
    for (const [g, periods] of periodsList.entries()) {
      const alone = await computeDriversMany({ source: service(silent).source }, base, [periods]);
      expect(together[g]).toEqual(alone[0]);
      expect(together[g]?.view.gaps).toEqual(gapsOnTheYear(silent, periods));
    }
    // Not a comparison of empty lists: both silences are outages in every digest.
    expect(together.map((o) => o.view.gaps.map((x) => x.key).sort())).toEqual([
      ["sca", "secrets"],
      ["sca", "secrets"],
      ["sca", "secrets"],
    ]);
  });

  it("asks a long digest's slices from two weeks before its previous period, in one range", async () => {
    const { source, asked } = service({});
    await computeDriversMany({ source }, periodsFirst, [LONG]);
    expect(asked).toHaveLength(1);
    const near = addDays(LONG.previousFrom, -PERIODS_LEAD_DAYS);
    expect(asked[0]?.every((q) => q.fromDay === near && q.toDay === LAST)).toBe(true);
  });
});
