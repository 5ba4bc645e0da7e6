import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountFor,
  dailyCounts,
  type Emulator,
  SCENARIO_KEYS,
  SCENARIOS,
  type ScenarioKind,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { createAnalyticsClient } from "../../src/analytics/client.ts";
import { createDigestService } from "../../src/digests/digest-service.ts";
import { addDays } from "../../src/insights/days.ts";
import { topDriver } from "../../src/insights/drivers.ts";
import { silentLogger } from "../../src/log.ts";

/**
 * The emulator's scenario accounts, read through the real client and digest service: whatever day
 * it is, the drivers name the planted change first, and only the outage is flagged as one.
 */

const FIRST = "2026-11-16"; // a Monday; the week after covers every weekday
let today = FIRST;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ today: () => today });
});
afterAll(() => emu.close());

function service(key: string) {
  const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
  return createDigestService({
    apiKeys: { load: async () => ({ apiKey: key, meta: { savedBy: "U0TEST", savedAt: "" } }) },
    insights: { fetch: (_ref, k, q) => client.insights(k, q), invalidate: async () => 0 },
    slices: client,
  });
}

async function explain(kind: ScenarioKind, range: string) {
  const { view } = await service(SCENARIO_KEYS[kind]).build({
    ref: { teamId: "T0SCENARIO" },
    range,
    tz: "UTC",
    now: new Date(`${today}T14:00:00Z`),
    drivers: "required",
  });
  const drivers = view.drivers;
  if (!drivers) throw new Error("no drivers");
  return { view, drivers };
}

const days = Array.from({ length: 7 }, (_, i) => addDays(FIRST, i));

describe("emulator scenarios", () => {
  it("every emulator knows the scenario keys; their numbers move from the planted day on", () => {
    for (const key of Object.values(SCENARIO_KEYS)) expect(accountFor(key)?.assets.length).toBe(35);
    const account = accountFor(SCENARIO_KEYS.outage);
    if (!account) throw new Error("no account");
    const sca = ["sca"];
    expect(dailyCounts(account, addDays(FIRST, -4), undefined, sca, FIRST).findings).toBeGreaterThan(0);
    expect(dailyCounts(account, addDays(FIRST, -3), undefined, sca, FIRST).findings).toBe(0);
    // Without today the model is the plain one: the scenario is relative to the emulator's clock.
    expect(dailyCounts(account, addDays(FIRST, -3), undefined, sca).findings).toBeGreaterThan(0);
  });

  for (const day of days) {
    it(`on ${day}: each scenario's top driver is the planted one; only the outage is a gap`, async () => {
      today = day;
      for (const range of ["last7d", "last30d"]) {
        const regression = await explain("regression", range);
        for (const m of ["violations", "findings"] as const)
          expect(topDriver(regression.drivers.drivers, m)).toMatchObject({
            dimension: "group",
            key: "payments",
          });
        expect(regression.drivers.gaps).toEqual([]);

        const rollout = await explain("newScanner", range);
        const top = topDriver(rollout.drivers.drivers, "findings");
        expect(top).toMatchObject({ dimension: "scanner", key: "container" });
        if (range === "last7d") expect(top?.isNew).toBe(true);
        expect(rollout.drivers.gaps).toEqual([]);

        const outage = await explain("outage", range);
        for (const m of ["violations", "findings"] as const) {
          const t = topDriver(outage.drivers.drivers, m);
          expect(t).toMatchObject({ dimension: "scanner", key: "sca" });
          expect(t?.change).toBeLessThan(0);
        }
        const since = addDays(day, -SCENARIOS.outage.startsDaysAgo);
        expect(outage.drivers.gaps.map((g) => [g.dimension, g.key, g.from, g.ongoing])).toEqual([
          ["scanner", "sca", since, true],
        ]);
        expect(outage.view.digest.completeness?.partialFrom).toBe(day);
      }
    });
  }
});
