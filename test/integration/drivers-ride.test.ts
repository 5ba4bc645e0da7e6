import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY, type Emulator, startEmulator } from "../../sandbox/analytics/index.ts";
import { createAnalyticsClient } from "../../src/analytics/client.ts";
import { parseKeyring } from "../../src/config.ts";
import { createDigestService } from "../../src/digests/digest-service.ts";
import { createDriversCache } from "../../src/digests/drivers-cache.ts";
import { createDriversPlanner } from "../../src/digests/drivers-planner.ts";
import { batchLimits, DEFAULT_DRIVERS } from "../../src/digests/drivers-service.ts";
import { createFilterListsCache } from "../../src/digests/filter-lists.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { scheduledExtras } from "../../src/digests/scheduled.ts";
import { sharedBatcher } from "../../src/digests/slices-batcher.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { backends, useRedis } from "../setup/backends.ts";

/**
 * A scheduled digest's own question and its drivers' slices in one request: once the account's lists
 * are held from an earlier digest, a slot's slices are cut by them before the reply is in and ride
 * with the digest's question; the reply's lists are the check.
 */

const TODAY = "2026-11-20";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const WEEK_BEFORE = new Date(NOW.getTime() - 7 * 86_400_000);
const REF: WorkspaceRef = { teamId: "T0RIDE" };

let emu: Emulator;
const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);

beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY });
});

afterAll(async () => {
  await emu.close();
});

describe.each(backends())("on $name Redis, a slot's digests and their drivers, asked together", ({ url }) => {
  const prefixes: string[] = [];
  const redis: RedisClient = useRedis(url, async () => {
    for (const prefix of prefixes)
      for await (const batch of scanKeys(redis, `${prefix}*`))
        for (const key of batch) await redis.unlink(key);
  });

  /**
   * A worker process's digest service as compose.ts builds it, on `prefix` (a new one unless given:
   * a process started later over what an earlier one left in Redis).
   */
  async function processOn(prefix = `t-ride-${randomBytes(4).toString("hex")}`) {
    if (!prefixes.includes(prefix)) {
      prefixes.push(prefix);
      await createApiKeyStore({ redis, keyring, prefix }).save(REF, DEMO_API_KEY, {
        savedBy: "U0TEST",
        savedAt: NOW.toISOString(),
      });
    }
    const keys = createKeyScheme({ prefix });
    const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
    await client.introspect(DEMO_API_KEY);
    const driversCache = createDriversCache({ redis, keys, secret: randomBytes(32), logger: silentLogger() });
    const filterLists = createFilterListsCache({ redis, keys });
    const digests = createDigestService({
      apiKeys: createApiKeyStore({ redis, keyring, prefix }),
      insights: createInsightsCache({
        redis,
        keys,
        client: sharedBatcher(client, batchLimits(DEFAULT_DRIVERS)),
        logger: silentLogger(),
      }),
      slices: client,
      driversCache,
      driversPlanner: createDriversPlanner(),
      filterLists,
      logger: silentLogger(),
    });
    return { prefix, digests, filterLists, close: () => driversCache.close() };
  }

  type Process = Awaited<ReturnType<typeof processOn>>;

  /**
   * A slot of ten subscriptions of one account and range firing at `now`, warmed before it fires as the
   * slot's lookahead warms it (SLOT_WARM_LEAD_SECONDS ahead), then delivered.
   */
  async function fire(p: Process, now: Date) {
    const before = emu.requestCount();
    await p.digests.warmDrivers(
      REF,
      Array.from({ length: 10 }, () => ({ range: "last7d", tz: "UTC", now, assetIds: [], scannerIds: [] })),
    );
    const views = await Promise.all(
      Array.from({ length: 10 }, () =>
        p.digests.build({
          ref: REF,
          range: "last7d",
          tz: "UTC",
          now,
          ...scheduledExtras({ drivers: true, chart: "off" }),
        }),
      ),
    );
    return { requests: emu.requestCount() - before, views: views.map((v) => v.view) };
  }

  it("first fire: the question, then the slices; a week later, in a new process: one request for both, the same numbers as asked apart", async () => {
    const first = await processOn();
    const a = await fire(first, WEEK_BEFORE);
    // Nothing held yet: the slices are cut by the reply's lists, so they go after it.
    expect(a.requests).toBe(2);
    await first.close();
    const later = await processOn(first.prefix);
    const b = await fire(later, NOW);
    expect(b.requests).toBe(1);
    const body = JSON.parse(emu.lastRequest()?.body ?? "{}") as { query: string };
    expect(body.query).toMatch(/^query DriverSlices\(/);
    expect(body.query).toMatch(/digest: insights\(fromDay: \$from_day/);
    expect(body.query).toMatch(/filters \{/);
    for (const v of b.views) expect(v.driversUnavailable).toBeFalsy();
    await later.close();
    // The same fire where nothing was held: the same digest, drivers and gaps.
    const cold = await processOn();
    const c = await fire(cold, NOW);
    expect(c.requests).toBe(2);
    await cold.close();
    expect(b.views[0]?.drivers).toEqual(c.views[0]?.drivers);
    expect(b.views[0]?.digest).toEqual(c.views[0]?.digest);
    expect(b.views[0]?.previousSeries).toEqual(c.views[0]?.previousSeries);
    for (const v of b.views) expect(v.drivers).toEqual(b.views[0]?.drivers);
  });

  it("with lists held that the account has changed since (an asset gone, one renamed): the drivers are those of the reply's lists", async () => {
    const first = await processOn();
    await fire(first, WEEK_BEFORE);
    await first.close();
    const held = await first.filterLists.held(REF);
    const assets = held?.assets ?? [];
    expect(assets.length).toBeGreaterThan(3);
    // What a week of changes may look like: an asset gone and another renamed into a new group.
    await first.filterLists.put(REF, {
      assets: [
        ...assets.slice(2),
        { value: assets[1]?.value ?? "", displayValue: `renamed / ${assets[1]?.displayValue}` },
      ],
      scanners: held?.scanners ?? [],
    });
    const later = await processOn(first.prefix);
    const b = await fire(later, NOW);
    // The guess rode with the question; the reply's lists differ, so the slices are asked again.
    expect(b.requests).toBe(2);
    await later.close();
    const cold = await processOn();
    const c = await fire(cold, NOW);
    await cold.close();
    expect(b.views[0]?.drivers).toEqual(c.views[0]?.drivers);
    expect(b.views[0]?.digest).toEqual(c.views[0]?.digest);
  });

  it("digests nobody planned, with the lists held here: still one computation for all, gathered while their replies come", async () => {
    const p = await processOn();
    await fire(p, WEEK_BEFORE);
    // Three people ask at once, each a range of their own: no slot planned them. The service takes
    // 300 ms a request, so all three are in while the first reply is awaited (a loaded machine can
    // delay a digest's own reads by tens of ms; the gathering is what is tested, not that timing).
    const before = emu.byOperation().DriverSlices?.requests ?? 0;
    emu.setRates({ latencyMs: 300 });
    const views = await Promise.all(
      ["last7d", "last8d", "last9d"].map((range) =>
        p.digests.build({ ref: REF, range, tz: "UTC", now: NOW, drivers: "required" }),
      ),
    ).finally(() => emu.setRates({ latencyMs: 0 }));
    await p.close();
    for (const v of views) expect(v.view.drivers).toBeDefined();
    // One fetch of the days the three need: taken at once, the first would have left the others out.
    expect((emu.byOperation().DriverSlices?.requests ?? 0) - before).toBe(1);
  });
});
