import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  accountFor,
  DEMO_API_KEY,
  dailyCounts,
  type Emulator,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { createAnalyticsClient } from "../../src/analytics/client.ts";
import type { InsightsQuery } from "../../src/analytics/types.ts";
import { parseKeyring } from "../../src/config.ts";
import { createDigestService, type DigestRequest } from "../../src/digests/digest-service.ts";
import { createInsightsCache, type InsightsCache } from "../../src/digests/insights-cache.ts";
import { enumerateDays } from "../../src/insights/days.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { createWorkspaceSettings } from "../../src/store/workspace-settings.ts";

/**
 * The digest service picks each digest's chart style (the request's, else the workspace's setting,
 * else native; always off when the deployment turns charts off) and, for a chart, fetches the
 * previous period day by day beside the digest's own query. Real Redis, the emulator.
 */

const TODAY = "2026-11-20";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const REF = { teamId: "T0CHARTSV" };
let emu: Emulator;
let redis: Redis;
const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);

beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY });
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});
afterAll(async () => {
  await emu.close();
  await redis.quit();
});

async function world(o: { charts?: boolean; cacheMs?: number } = {}) {
  const prefix = `t-charts-${randomBytes(4).toString("hex")}`;
  const keys = createKeyScheme({ prefix });
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  await apiKeys.save(REF, DEMO_API_KEY, { savedBy: "U0TEST", savedAt: NOW.toISOString() });
  const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
  const inner = createInsightsCache({ redis, keys, client, logger: silentLogger() });
  const queries: InsightsQuery[] = [];
  const source: InsightsCache = {
    fetch: (ref, key, q) => {
      queries.push(q);
      return inner.fetch(ref, key, q);
    },
    invalidate: (ref) => inner.invalidate(ref),
  };
  const settings = createWorkspaceSettings({ redis, keys, cacheMs: o.cacheMs ?? 0 });
  const digests = createDigestService({ apiKeys, insights: source, charts: o.charts, settings });
  const build = (extra: Partial<DigestRequest> = {}) =>
    digests.build({ ref: REF, range: "last7d", tz: "UTC", now: NOW, ...extra });
  return { queries, settings, build, keys };
}

describe("a digest's chart style and the previous period it brings", () => {
  it("is native by default, with the previous period's days from a query of its own", async () => {
    const w = await world();
    const { view, range } = await w.build();
    expect(view.chartStyle).toBe("native");
    expect(w.queries.map((q) => [q.fromDay, q.toDay])).toEqual(
      expect.arrayContaining([
        [range.from, range.to],
        [range.previousFrom, range.previousTo],
      ]),
    );
    const account = accountFor(DEMO_API_KEY);
    if (!account) throw new Error("no demo account");
    const days = enumerateDays(range.previousFrom, range.previousTo);
    expect(view.previousSeries?.map((p) => p.day)).toEqual(days);
    expect(view.previousSeries?.map((p) => p.violations)).toEqual(
      days.map((d) => dailyCounts(account, d, []).violations),
    );
  });

  it("follows the workspace's setting, lets the request override it, and asks nothing more when off", async () => {
    const w = await world();
    await w.settings.setChart(REF, "png");
    expect((await w.build()).view.chartStyle).toBe("png");
    expect((await w.build({ chart: "native" })).view.chartStyle).toBe("native");
    await w.settings.setChart(REF, "off");
    w.queries.length = 0;
    const off = await w.build({ range: "last14d" });
    expect(off.view.chartStyle).toBe("off");
    expect(off.view.previousSeries).toBeUndefined();
    expect(w.queries).toHaveLength(1);
    // Junk in the stored setting reads as the default.
    await redis.hset(w.keys.settings(REF), "chart", "svg");
    expect((await w.build()).view.chartStyle).toBe("native");
    await w.settings.setChart(REF, null);
    expect(await redis.hget(w.keys.settings(REF), "chart")).toBeNull();
  });

  it("is off everywhere when the deployment turns charts off", async () => {
    const w = await world({ charts: false });
    await w.settings.setChart(REF, "native");
    const { view } = await w.build({ chart: "png" });
    expect(view.chartStyle).toBe("off");
    expect(w.queries).toHaveLength(1);
  });

  it("each process remembers the workspace's setting for a while; its own change shows at once", async () => {
    const w = await world({ cacheMs: 60_000 });
    const other = createWorkspaceSettings({ redis, keys: w.keys });
    expect((await w.settings.get(REF)).chart).toBeUndefined();
    await other.setChart(REF, "off");
    // Another process's change waits for this one's memory to expire...
    expect((await w.settings.get(REF)).chart).toBeUndefined();
    // ...while a change made here is read back at once.
    await w.settings.setChart(REF, "png");
    expect((await w.settings.get(REF)).chart).toBe("png");
  });
});
