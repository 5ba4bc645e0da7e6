import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { Redis } from "ioredis";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  type GoldenCase,
  type GoldenOutcome,
  goldenCases,
  runGoldenCases,
  runGoldenCasesPlanned,
} from "../golden/drivers-cases.ts";

/**
 * The drivers hold their numbers: every golden case (scenario and generated accounts, many ranges,
 * filters, zones, budgets, two "todays") gives exactly the contributors, "other" rows, data gaps,
 * group buttons, budget counts and previous-period series recorded before the drivers were reworked
 * (test/fixtures/drivers-golden.json.gz, written by test/golden/capture-drivers.ts).
 */

const golden = JSON.parse(
  gunzipSync(readFileSync(new URL("../fixtures/drivers-golden.json.gz", import.meta.url))).toString("utf8"),
) as Record<string, GoldenOutcome>;

const redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

const gapsOf = (o: GoldenOutcome | undefined) =>
  o && "drivers" in o ? ((o.drivers as { gaps: unknown[] } | null)?.gaps ?? []) : [];

/** Every case's outcome is the recorded one: the first changed case as a diff, then the list of all of them. */
function expectRecorded(cases: GoldenCase[], outcomes: Record<string, GoldenOutcome>): void {
  const changed = cases.filter((c) => JSON.stringify(outcomes[c.id]) !== JSON.stringify(golden[c.id]));
  const first = changed[0];
  if (first)
    expect({ id: first.id, outcome: outcomes[first.id] }).toEqual({
      id: first.id,
      outcome: golden[first.id],
    });
  expect(changed.map((c) => c.id)).toEqual([]);
}

describe("drivers against the golden record", () => {
  it("the record covers what it must: every case, scenario outages found, budgets and chunks exercised", () => {
    const cases = goldenCases();
    expect(Object.keys(golden).sort()).toEqual(cases.map((c) => c.id).sort());
    const outage = cases.filter((c) => c.account === "outage" && c.range === "last7d" && c.filter === "none");
    expect(outage.length).toBeGreaterThan(0);
    for (const c of outage)
      expect(gapsOf(golden[c.id]).map((g) => (g as { key: string }).key)).toContain("sca");
    // Enough gaps over the whole record that a change in the rule or in the days asked would show.
    const gaps = Object.values(golden).reduce((n, o) => n + gapsOf(o).length, 0);
    expect(gaps).toBeGreaterThan(30);
  });

  it("every case gives the recorded drivers, gaps, group buttons and previous period", async () => {
    const cases = goldenCases();
    const outcomes = await runGoldenCases(redis, cases);
    expectRecorded(cases, outcomes);
  }, 900_000);

  it("every case planned with the others of its account, filter and zone (a slot's drivers) gives the same", async () => {
    const cases = goldenCases();
    const { outcomes, groups } = await runGoldenCasesPlanned(redis, cases);
    expectRecorded(cases, outcomes);
    // Planned together, digests ending the same day shared their slices: the groups of a dozen
    // ranges (ending on four or five different days) asked about half as many requests as digests.
    const big = groups.filter((g) => g.digests >= 10);
    expect(big.length).toBeGreaterThan(0);
    const digests = big.reduce((n, g) => n + g.digests, 0);
    expect(big.reduce((n, g) => n + g.slices, 0)).toBeLessThanOrEqual(0.6 * digests);
  }, 900_000);

  it("every case asked at once (nobody planned them), with its account's same filter or every filter, gives the same", async () => {
    const cases = goldenCases();
    const sameFilter = await runGoldenCasesPlanned(redis, cases, "joined");
    const everyFilter = await runGoldenCasesPlanned(redis, cases, "account");
    expectRecorded(cases, sameFilter.outcomes);
    expectRecorded(cases, everyFilter.outcomes);
    // Asked while the first digest's lists were on their way, the digests ending the same day joined
    // one computation: as few requests as when a slot plans them.
    const big = sameFilter.groups.filter((g) => g.digests >= 10);
    expect(big.length).toBeGreaterThan(0);
    const digests = big.reduce((n, g) => n + g.digests, 0);
    expect(big.reduce((n, g) => n + g.slices, 0)).toBeLessThanOrEqual(0.6 * digests);
    // Every filter of an account at once: computations of different filters sent their slices in
    // shared requests, fewer than they make filter by filter.
    const total = (r: typeof sameFilter) => r.groups.reduce((n, g) => n + g.slices, 0);
    expect(total(everyFilter)).toBeLessThan(0.8 * total(sameFilter));
  }, 900_000);
});
