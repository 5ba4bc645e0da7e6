import { createHash } from "node:crypto";
import { buildAccount, computeInsights } from "../../sandbox/analytics/index.ts";
import type { SliceQuery, SliceSeries } from "../../src/analytics/types.ts";
import type { FirstAsk } from "../../src/digests/drivers-plan.ts";
import { computeDriversMany } from "../../src/digests/drivers-service.ts";
import { daysInclusive } from "../../src/insights/days.ts";
import { parseRange } from "../../src/insights/ranges.ts";

/**
 * What the drivers ask the service, by the way their slices are first asked, with no HTTP between:
 * `node --import tsx test/bench/drivers-days.ts [accounts] [ranges]` (default 200 generated accounts,
 * the storms' kind, each with a bucket of `last7d`…`last16d` as a slot's ten subscriptions have;
 * ranges as `7,30` for `last7d` and `last30d`). For each way (FirstAsk) it prints the slices
 * requests, the slice-days asked (a slice over N days is N), how many accounts needed a second
 * request, and a hash of every account's drivers: the two hashes must agree. The emulator's own
 * numbers answer each slice, as its HTTP endpoint would.
 */

const [accounts = "200", ranges = "7,8,9,10,11,12,13,14,15,16"] = process.argv.slice(2);
const n = Number(accounts);
const lengths = ranges.split(",").map(Number);
const now = new Date("2026-11-27T09:00:00Z");
const today = "2026-11-27";

async function measure(firstAsk: FirstAsk) {
  let requests = 0;
  let sliceDays = 0;
  let second = 0;
  const hash = createHash("sha256");
  for (let a = 0; a < n; a++) {
    const account = buildAccount({ apiKey: `drivers-days-${a}` });
    let mine = 0;
    const source = {
      async slices(_key: string, queries: readonly SliceQuery[]): Promise<SliceSeries[]> {
        requests++;
        mine++;
        return queries.map((q) => {
          sliceDays += daysInclusive(q.fromDay, q.toDay);
          const filters = { assetIds: q.assetIds ?? null, scannerIds: q.scannerIds ?? null };
          const r = computeInsights(account, { fromDay: q.fromDay, toDay: q.toDay, filters }, today);
          return { dailyMetric: r.dailyMetric, dailyActivity: r.dailyActivity };
        });
      },
    };
    const periods = lengths.map((days) => parseRange(`last${days}d`, { now, tz: "UTC" }));
    const outcomes = await computeDriversMany(
      { source },
      {
        apiKey: account.apiKey,
        assetIds: [],
        scannerIds: [],
        assets: account.assets,
        scanners: account.scanners,
        partialFrom: today,
        firstAsk,
      },
      periods.map((p) => ({
        from: p.from,
        to: p.to,
        previousFrom: p.previousFrom,
        previousTo: p.previousTo,
      })),
    );
    hash.update(JSON.stringify(outcomes));
    if (mine > 1) second++;
  }
  return { firstAsk, requests, sliceDays, second, answers: hash.digest("hex").slice(0, 16) };
}

process.stdout.write(`${n} accounts, each a bucket of ${lengths.map((d) => `last${d}d`).join(", ")}\n`);
for (const mode of ["window", "periods"] as const) {
  const m = await measure(mode);
  process.stdout.write(
    `${m.firstAsk}: ${m.requests} slices requests, ${m.sliceDays} slice-days, ${m.second} accounts with a second request, answers ${m.answers}\n`,
  );
}
