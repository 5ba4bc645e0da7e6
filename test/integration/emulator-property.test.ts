import fc from "fast-check";
import { expect, it } from "vitest";
import { accountFor, DEMO_API_KEY, SEED_INSIGHTS_QUERY, seedPost } from "../../sandbox/analytics/index.ts";
import { useEmulator } from "./use-emulator.ts";

const emu = useEmulator({ today: () => "2026-11-20" });

const DAY_MS = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function query(variables: Record<string, unknown>) {
  const reply = await seedPost(
    emu.graphqlUrl,
    { query: SEED_INSIGHTS_QUERY, variables },
    { apiKey: DEMO_API_KEY },
  );
  expect(reply.status).toBe(200);
  const json = JSON.parse(reply.text);
  expect(json.errors).toBeUndefined();
  return json.data.insights;
}

const total = (list: any[], field: string) => list.reduce((n: number, e: any) => n + e[field], 0);

it("summary equals the sums of the daily series, and previous the sums of the period before", async () => {
  const account = accountFor(DEMO_API_KEY)!;
  const assetIds = account.assets.map((a) => a.value);
  const scannerIds = account.scanners.map((s) => s.value);
  const start = Date.UTC(2024, 0, 1);
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 1000 }),
      fc.integer({ min: 1, max: 90 }),
      fc.subarray(assetIds, { maxLength: 6 }),
      fc.subarray(scannerIds),
      async (offset, days, assets, scanners) => {
        const fromMs = start + offset * DAY_MS;
        const filters = { scannerIdsFilter: scanners, assetIdsFilter: assets };
        const now = await query({
          from_day: day(fromMs),
          to_day: day(fromMs + (days - 1) * DAY_MS),
          ...filters,
        });
        const before = await query({
          from_day: day(fromMs - days * DAY_MS),
          to_day: day(fromMs - DAY_MS),
          ...filters,
        });
        expect(now.dailyMetric).toHaveLength(days);
        expect(before.dailyMetric).toHaveLength(days);
        expect(now.summary.findings).toEqual({
          current: total(now.dailyMetric, "findings"),
          previous: total(before.dailyMetric, "findings"),
        });
        expect(now.summary.violations).toEqual({
          current: total(now.dailyMetric, "violations"),
          previous: total(before.dailyMetric, "violations"),
        });
        expect(now.summary.fixes).toBe(total(now.dailyActivity, "fixedViolations"));
        expect(now.summary.mergedViolations).toBe(total(now.dailyActivity, "mergedViolations"));
        for (const e of now.dailyMetric) expect(e.violations).toBeLessThanOrEqual(e.findings);
        now.dailyActivity.forEach((e: any, i: number) => {
          expect(e.fixedViolations).toBeLessThanOrEqual(now.dailyMetric[i].violations);
          expect(e.mergedViolations).toBeLessThanOrEqual(now.dailyMetric[i].violations);
        });
      },
    ),
    { numRuns: 50 },
  );
});
