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
import type { SliceQuery } from "../../src/analytics/types.ts";
import { checkMessage } from "../../src/blockkit/limits.ts";
import { parseKeyring } from "../../src/config.ts";
import { createDigestService } from "../../src/digests/digest-service.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { PERIODS_LEAD_DAYS, WINDOW_LEAD_DAYS } from "../../src/digests/drivers-plan.ts";
import {
  computeDriversMany,
  DEFAULT_DRIVERS,
  type DriversSettings,
} from "../../src/digests/drivers-service.ts";
import { explainDigest, explainInThread, narrowDigest } from "../../src/digests/explain.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { ACTION, BLOCK, GROUP_ACTION_PREFIX } from "../../src/ids.ts";
import { assetIdsOfGroups, groupAssets } from "../../src/insights/asset-groups.ts";
import { addDays, enumerateDays } from "../../src/insights/days.ts";
import { type Breakdown, breakdownOf } from "../../src/insights/drivers.ts";
import { parseRange } from "../../src/insights/ranges.ts";
import type { DigestView } from "../../src/insights/types.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { decodeState } from "../../templates/state.ts";

const TODAY = "2026-11-20";
const NOW = new Date(`${TODAY}T15:00:00Z`);
const BIG_KEY = "drivers-big-account";
const A = { teamId: "T0DRIVERS" };
const B = { teamId: "T0DRIVBIG" };

let emu: Emulator;
let redis: Redis;
const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);

beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY, accounts: [{ apiKey: BIG_KEY, assetCount: 2400 }] });
  redis = new Redis(inject("redisUrl"), { maxRetriesPerRequest: null });
});

afterAll(async () => {
  await emu.close();
  await redis.quit();
});

/** A digest service over real Redis and the emulator; `queries` records every question asked of the cache. */
async function world(settings: DriversSettings = DEFAULT_DRIVERS) {
  const prefix = `t-drivers-${randomBytes(4).toString("hex")}`;
  const apiKeys = createApiKeyStore({ redis, keyring, prefix });
  await apiKeys.save(A, DEMO_API_KEY, { savedBy: "U0TEST", savedAt: NOW.toISOString() });
  await apiKeys.save(B, BIG_KEY, { savedBy: "U0TEST", savedAt: NOW.toISOString() });
  const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
  const inner = createInsightsCache({
    redis,
    keys: createKeyScheme({ prefix }),
    client,
    logger: silentLogger(),
  });
  const queries: SliceQuery[] = [];
  /** Each slices request's queries, in the order asked. */
  const calls: SliceQuery[][] = [];
  const slices: SlicesSource = {
    slices: (key, qs) => {
      queries.push(...qs);
      calls.push([...qs]);
      return client.slices(key, qs);
    },
  };
  const digests = createDigestService({ apiKeys, insights: inner, slices, drivers: settings });
  // Introspection is cached per client; warm it so request counts below are insights queries only.
  await client.introspect(DEMO_API_KEY);
  return { digests, queries, calls };
}

const build = (w: Awaited<ReturnType<typeof world>>, range: string, extra: object = {}) =>
  w.digests.build({ ref: A, range, tz: "UTC", now: NOW, drivers: "required", ...extra });

/** The oracle: the emulator's own sums over a period for a selection. */
function oracle(key: string, from: string, to: string, assetIds?: string[], scannerIds?: string[]) {
  const account = accountFor(key);
  if (!account) throw new Error("unknown account");
  let violations = 0;
  let findings = 0;
  let fixes = 0;
  for (const day of enumerateDays(from, to)) {
    const c = dailyCounts(account, day, assetIds, scannerIds);
    violations += c.violations;
    findings += c.findings;
    fixes += c.fixedViolations;
  }
  return { violations, findings, fixes };
}

function rowsAddUp(b: Breakdown) {
  const rows = [...b.up, ...b.down, ...(b.other ? [b.other] : [])];
  expect(rows.reduce((s, r) => s + r.change, 0)).toBe(b.total.change);
  expect(rows.reduce((s, r) => s + r.current, 0)).toBe(b.total.current);
}

describe("drivers of a digest, against the emulator", () => {
  it("break the change down by asset group and scanner, the parts adding up to the digest's own totals", async () => {
    const w = await world();
    const { view, range } = await build(w, "last30d");
    const drivers = view.drivers?.drivers;
    if (!drivers) throw new Error("no drivers");
    const account = accountFor(DEMO_API_KEY);
    if (!account) throw new Error("no account");
    expect(drivers.total.violations).toEqual({
      current: view.digest.violations.current,
      previous: view.digest.violations.previous,
    });
    expect(drivers.total.fixes.current).toBe(view.digest.fixes);
    expect(drivers.total.fixes.previous).toBe(
      oracle(DEMO_API_KEY, range.previousFrom, range.previousTo).fixes,
    );
    for (const b of drivers.breakdowns) rowsAddUp(b);
    // Each named group is exactly the emulator's sum over its assets; "other" is exactly the rest.
    const groups = groupAssets(account.assets);
    const byGroup = breakdownOf(drivers, "violations", "group") as Breakdown;
    const named = [...byGroup.up, ...byGroup.down];
    for (const c of named) {
      const ids = assetIdsOfGroups(account.assets, [c.key as string]);
      expect(c.current).toBe(oracle(DEMO_API_KEY, range.from, range.to, ids).violations);
      expect(c.previous).toBe(oracle(DEMO_API_KEY, range.previousFrom, range.previousTo, ids).violations);
    }
    const rest = groups.filter((g) => !named.some((c) => c.key === g.name)).flatMap((g) => g.assetIds);
    expect(byGroup.other?.current).toBe(oracle(DEMO_API_KEY, range.from, range.to, rest).violations);
    const bySca = [...(breakdownOf(drivers, "findings", "scanner")?.up ?? [])].find((c) => c.key === "sca");
    if (bySca)
      expect(bySca.current).toBe(oracle(DEMO_API_KEY, range.from, range.to, undefined, ["sca"]).findings);
    // One query for the whole digest, one per scanner (5), one per group (13); one window.
    expect(view.drivers?.queries).toBe(1 + 5 + groups.length);
    expect(view.drivers?.unqueriedGroups).toBe(0);
    // The narrowing buttons: exactly the groups some breakdown names.
    const anyNamed = new Set(
      drivers.breakdowns
        .filter((x) => x.dimension === "group")
        .flatMap((x) => [...x.up, ...x.down].map((c) => c.key)),
    );
    expect(new Set(view.drivers?.groups.map((g) => g.name))).toEqual(anyNamed);
    expect(view.previousSeries?.map((p) => p.day)).toEqual(
      enumerateDays(range.previousFrom, range.previousTo),
    );
    expect(view.previousSeries?.reduce((s, p) => s + (p.violations ?? 0), 0)).toBe(
      view.digest.violations.previous,
    );
  });

  it("ask for each digest's slices in one request, over its periods, the gap rule's baseline and a week's lead, daily lists only", async () => {
    const w = await world();
    const before = emu.requestCount();
    const { view, range } = await build(w, "last30d");
    const slices = view.drivers?.queries ?? 0;
    expect(slices).toBe(19);
    // The digest's own query and one request carrying every slice as an aliased field.
    expect(emu.requestCount() - before).toBe(2);
    expect(w.queries).toHaveLength(slices);
    // The baseline starts 28 days before the previous period; a week more is asked with it, so a
    // silence that began just before the baseline costs no second request.
    const firstDay = addDays(range.previousFrom, -28 - WINDOW_LEAD_DAYS);
    for (const q of w.queries) expect([q.fromDay, q.toDay]).toEqual([firstDay, range.to]);
    const body = JSON.parse(emu.lastRequest()?.body ?? "{}") as { query: string; variables: object };
    expect(body.query).toMatch(/^query DriverSlices\(/);
    expect(body.query.match(/insights\(/g)).toHaveLength(slices);
    expect(body.query).not.toMatch(/filters \{|summary/);
  });

  it("asked as a slot's deliveries ask (periods first): the periods and two weeks before them, then the baseline of the few slices whose silences the rule judges; the same drivers", async () => {
    const w = await world();
    const windowed = await build(w, "last30d");
    const w2 = await world();
    const before = emu.requestCount();
    const { view, range } = await build(w2, "last30d", { driversFirstAsk: "periods" });
    const slices = view.drivers?.queries ?? 0;
    expect(slices).toBe(19);
    const [first, ...later] = w2.calls;
    // The digest's own query, one request carrying every slice, and at most one more.
    expect(later.length).toBeLessThanOrEqual(1);
    expect(emu.requestCount() - before).toBe(2 + later.length);
    expect(first).toHaveLength(slices);
    const firstDay = addDays(range.previousFrom, -PERIODS_LEAD_DAYS);
    for (const q of first ?? []) expect([q.fromDay, q.toDay]).toEqual([firstDay, range.to]);
    // The history asked after: some of the slices, each up to the day before those first asked.
    const history = later.flat();
    expect(history.length).toBeLessThan(slices);
    for (const q of history) {
      expect(q.toDay).toBe(addDays(firstDay, -1));
      expect(q.fromDay < firstDay).toBe(true);
    }
    // Fewer days asked than the windows, for the same answer.
    const days = (qs: SliceQuery[]) => qs.reduce((n, q) => n + enumerateDays(q.fromDay, q.toDay).length, 0);
    expect(days(w2.queries)).toBeLessThan(days(w.queries));
    expect(view.drivers).toEqual(windowed.view.drivers);
    expect(view.previousSeries).toEqual(windowed.view.previousSeries);
  });

  it("send scanner ids as variables, never in the document", async () => {
    const w = await world();
    // A digest of one scanner: its slices (asset groups) all carry the scanner's id.
    await build(w, "last7d", { scannerIds: ["sast"] });
    const body = JSON.parse(emu.lastRequest()?.body ?? "{}") as { query: string; variables: object };
    expect(body.query).toMatch(/^query DriverSlices\(/);
    expect(body.query).not.toContain('"sast"');
    expect(JSON.stringify(body.variables)).toContain('"sast"');
  });

  it("stay within the query budget; groups past it are counted in 'other', unnamed", async () => {
    const w = await world({ ...DEFAULT_DRIVERS, maxQueries: 8 });
    const { view } = await build(w, "last30d");
    expect(view.drivers?.queries).toBe(8);
    expect(view.drivers?.unqueriedGroups).toBe(13 - 2);
    for (const b of view.drivers?.drivers.breakdowns ?? []) rowsAddUp(b);
    // A range long enough to need two windows doubles each slice's cost; the budget still holds.
    const long = await build(await world(), "last300d");
    expect(long.view.drivers?.queries).toBeLessThanOrEqual(DEFAULT_DRIVERS.maxQueries);
    expect(long.view.drivers?.unqueriedGroups).toBeGreaterThan(0);
  });

  it("compute together only digests whose plans agree: one range and two are computed apart, each as alone", async () => {
    const client = createAnalyticsClient({ graphqlUrl: emu.graphqlUrl, logger: silentLogger() });
    const reply = await client.insights(DEMO_API_KEY, { fromDay: TODAY, toDay: TODAY });
    const base = {
      apiKey: DEMO_API_KEY,
      assetIds: [],
      scannerIds: [],
      assets: reply.filters?.assetId ?? [],
      scanners: reply.filters?.scannerId ?? [],
      partialFrom: TODAY,
    };
    const periods = ["last30d", "last300d"].map((r) => parseRange(r, { now: NOW, tz: "UTC" }));
    const asked: SliceQuery[][] = [[], []];
    const counted = (into: SliceQuery[]): SlicesSource => ({
      slices: (key, qs) => {
        into.push(...qs);
        return client.slices(key, qs);
      },
    });
    const together = await computeDriversMany({ source: counted(asked[0] ?? []) }, base, periods);
    const alone = await Promise.all(
      periods.map(async (p) => (await computeDriversMany({ source: counted(asked[1] ?? []) }, base, [p]))[0]),
    );
    // The budget spends differently over two ranges: fewer groups are named in the longer digest.
    expect(together[1]?.view.unqueriedGroups).toBeGreaterThan(together[0]?.view.unqueriedGroups ?? 0);
    expect(together).toEqual(alone);
    // Apart: the same slices over the same days as when each is asked alone.
    const asKeys = (qs: SliceQuery[]) => qs.map((q) => JSON.stringify(q)).sort();
    expect(asKeys(asked[0] ?? [])).toEqual(asKeys(asked[1] ?? []));
  });

  it("say how many scanners went uncounted when the budget runs out before the scanners do", async () => {
    const scanners = accountFor(DEMO_API_KEY)!.scanners.length;
    // The whole digest costs one query, each scanner one more: room for two scanners and no group.
    const w = await world({ ...DEFAULT_DRIVERS, maxQueries: 3 });
    const { view } = await build(w, "last30d");
    const message = digestMessage(view);
    expect(view.drivers?.queries).toBe(3);
    expect(view.drivers?.unqueriedScanners).toBe(scanners - 2);
    expect(view.drivers?.unqueriedGroups).toBe(13);
    expect(JSON.stringify(message.blocks)).toContain(
      `13 smaller asset groups and ${scanners - 2} scanner${scanners - 2 === 1 ? "" : "s"} are counted in \\"other\\" (query budget).`,
    );
    for (const b of view.drivers?.drivers.breakdowns ?? []) rowsAddUp(b);
  });

  it("chunk large asset filters and sum the chunks to the same numbers", async () => {
    const chunked = await world({ maxQueries: 500, chunkSize: 40, concurrency: 6, batchSize: 32 });
    const whole = await world({ maxQueries: 500, chunkSize: 100_000, concurrency: 6, batchSize: 32 });
    const args = { ref: B, range: "last14d" };
    const a = await chunked.digests.build({ ...args, tz: "UTC", now: NOW, drivers: "required" });
    const b = await whole.digests.build({ ...args, tz: "UTC", now: NOW, drivers: "required" });
    expect(a.view.drivers?.drivers).toEqual(b.view.drivers?.drivers);
    expect(Math.max(...chunked.queries.map((q) => q.assetIds?.length ?? 0))).toBe(40);
    expect(Math.max(...whole.queries.map((q) => q.assetIds?.length ?? 0))).toBeGreaterThan(40);
    // Narrowed to one large group: the digest's own query is chunked too, and matches the oracle.
    const account = accountFor(BIG_KEY);
    const group = groupAssets(account?.assets ?? [])[0];
    if (!group || !account) throw new Error("no group");
    expect(group.assetIds.length).toBeGreaterThan(40);
    const narrowed = await chunked.digests.build({ ...args, tz: "UTC", now: NOW, assetGroups: [group.name] });
    const { range } = narrowed;
    expect(narrowed.view.digest.violations.current).toBe(
      oracle(BIG_KEY, range.from, range.to, group.assetIds).violations,
    );
    expect(narrowed.view.filters.selectedGroups).toEqual([group.name]);
    expect(narrowed.view.filters.selectedAssetIds).toEqual([]);
  });

  it("fetch the previous period for the chart without drivers, and refuse a group that is not there", async () => {
    const w = await world();
    const { view, range }: { view: DigestView; range: { previousFrom: string; previousTo: string } } =
      await w.digests.build({ ref: A, range: "last7d", tz: "UTC", now: NOW, previousSeries: true });
    expect(view.drivers).toBeUndefined();
    expect(view.previousSeries?.reduce((s, p) => s + (p.findings ?? 0), 0)).toBe(
      oracle(DEMO_API_KEY, range.previousFrom, range.previousTo).findings,
    );
    await expect(
      w.digests.build({ ref: A, range: "last7d", tz: "UTC", now: NOW, assetGroups: ["no-such-group"] }),
    ).rejects.toMatchObject({ code: "group_gone" });
    // One group of two gone is said too, never left out of the numbers.
    await expect(
      w.digests.build({
        ref: A,
        range: "last7d",
        tz: "UTC",
        now: NOW,
        assetGroups: ["payments", "no-such-group"],
      }),
    ).rejects.toMatchObject({
      code: "group_gone",
      message: 'No asset group is called "no-such-group" any more.',
    });
  });

  it("answer Why? in place, in a thread, and narrow to a group from the use cases a listener calls", async () => {
    const w = await world();
    const plain = await w.digests.build({ ref: A, range: "last7d", tz: "UTC", now: NOW, shareable: true });
    expect(plain.view.explainable).toBe(true);
    const state = { range: "last7d", assetIds: [], scannerIds: ["sast"] };
    const req = { ref: A, state, tz: "UTC", now: NOW };
    const answer = await explainDigest(w.digests, req);
    expect(checkMessage(answer)).toEqual([]);
    const ids = JSON.stringify(answer.blocks);
    expect(ids).toContain(BLOCK.digestDrivers);
    expect(ids).not.toContain(ACTION.explain);
    expect(ids).toContain(ACTION.share);
    const thread = await explainInThread(w.digests, req);
    expect(checkMessage(thread)).toEqual([]);
    expect(thread.blocks.some((b) => b.block_id === BLOCK.digestDrivers)).toBe(true);
    // The first group button of the answer narrows to its group.
    const button = answer.blocks
      .flatMap((b) => (b.type === "actions" ? b.elements : []))
      .find((e) => e.action_id === `${GROUP_ACTION_PREFIX}0`) as { value: string } | undefined;
    const narrowedState = decodeState(button?.value);
    expect(narrowedState.assetGroups).toHaveLength(1);
    expect(narrowedState.scannerIds).toEqual(["sast"]);
    const narrowed = await narrowDigest(w.digests, { ...req, state: narrowedState });
    expect(checkMessage(narrowed)).toEqual([]);
    expect(JSON.stringify(narrowed.blocks)).toContain(`Assets: ${narrowedState.assetGroups?.[0]}/*`);
  });
});
