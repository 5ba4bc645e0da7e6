import { randomBytes } from "node:crypto";
import {
  accountFor,
  DEMO_API_KEY,
  SCENARIO_KEYS,
  SECOND_API_KEY,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { createAnalyticsClient } from "../../src/analytics/client.ts";
import { parseKeyring } from "../../src/config.ts";
import { createDigestService, type DigestService } from "../../src/digests/digest-service.ts";
import { createDriversCache } from "../../src/digests/drivers-cache.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { createDriversPlanner } from "../../src/digests/drivers-planner.ts";
import { DEFAULT_DRIVERS, type DriversSettings } from "../../src/digests/drivers-service.ts";
import { createInsightsCache } from "../../src/digests/insights-cache.ts";
import { AppError } from "../../src/errors.ts";
import { assetIdsOfGroups, groupAssets } from "../../src/insights/asset-groups.ts";
import type { DigestView } from "../../src/insights/types.ts";
import { silentLogger } from "../../src/log.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { createKeyScheme } from "../../src/store/keys.ts";
import type { RedisClient } from "../../src/store/redis-client.ts";

/**
 * The golden drivers cases: digests with their drivers on the emulator's scenario and generated
 * accounts, over many ranges, filters, zones, budgets and two "todays", built through the public
 * digest service. What each case produced before the drivers were reworked is kept in
 * test/fixtures/drivers-golden.json (written by capture-drivers.ts from the code of that time); the
 * golden test builds every case again and expects the same contributors, "other" rows, gaps,
 * group buttons, budget counts and previous-period series.
 */

export const GOLDEN_TODAYS = ["2026-11-20", "2026-11-22"] as const;

export const GOLDEN_ACCOUNTS = [
  { name: "demo", apiKey: DEMO_API_KEY },
  { name: "second", apiKey: SECOND_API_KEY },
  { name: "regression", apiKey: SCENARIO_KEYS.regression },
  { name: "new-scanner", apiKey: SCENARIO_KEYS.newScanner },
  { name: "outage", apiKey: SCENARIO_KEYS.outage },
  { name: "generated-60", apiKey: "golden-generated-60", assetCount: 60, scannerCount: 7 },
  { name: "generated-1-scanner", apiKey: "golden-generated-one", assetCount: 25, scannerCount: 1 },
  { name: "generated-2400", apiKey: "golden-generated-2400", assetCount: 2400 },
] as const;

type AccountName = (typeof GOLDEN_ACCOUNTS)[number]["name"];

export interface GoldenCase {
  id: string;
  account: AccountName;
  today: string;
  range: string;
  tz: string;
  /** Hour of `today` (UTC) the digest is built at. */
  hour: number;
  filter: "none" | "scanner" | "group" | "assets" | "scanner+group";
  settings?: Partial<DriversSettings>;
}

/** What a case produced: the drivers view and the previous period, or the error's code. */
export type GoldenOutcome =
  | { drivers: unknown; previousSeries: unknown; digest: { violations: unknown; findings: unknown } }
  | { error: string };

const CORE_RANGES = ["last7d", "last30d"];
const ALL_RANGES = [
  "last1d",
  "last3d",
  "last4d",
  "last7d",
  "last14d",
  "last30d",
  "last90d",
  "last200d",
  "thisweek",
  "lastweek",
  "thismonth",
  "lastmonth",
  "2026-09-01..2026-09-30",
];

/** The case list: every account × core ranges × filters, every range on the demo and outage accounts, and edge cases. */
export function goldenCases(): GoldenCase[] {
  const out = new Map<string, GoldenCase>();
  const add = (c: Omit<GoldenCase, "id">) => {
    const settings = c.settings ? `:${JSON.stringify(c.settings)}` : "";
    const id = `${c.today}:${c.account}:${c.range}:${c.filter}:${c.tz}@${c.hour}${settings}`;
    out.set(id, { ...c, id });
  };
  for (const today of GOLDEN_TODAYS) {
    for (const a of GOLDEN_ACCOUNTS) {
      if (a.name === "generated-2400") continue;
      for (const range of CORE_RANGES)
        for (const filter of ["none", "scanner", "group", "assets", "scanner+group"] as const)
          add({ account: a.name, today, range, tz: "UTC", hour: 15, filter });
    }
    for (const account of ["demo", "outage", "regression", "new-scanner"] as const)
      for (const range of ALL_RANGES) add({ account, today, range, tz: "UTC", hour: 15, filter: "none" });
    // Another zone: today there is still yesterday in UTC terms, and the partial day moves.
    for (const account of ["demo", "outage"] as const)
      for (const range of ["last7d", "last30d", "thisweek"]) {
        add({ account, today, range, tz: "Pacific/Auckland", hour: 9, filter: "none" });
        add({ account, today, range, tz: "America/Los_Angeles", hour: 3, filter: "none" });
      }
    // A budget that leaves groups unnamed, and a long range that needs two windows under it.
    add({
      account: "demo",
      today,
      range: "last30d",
      tz: "UTC",
      hour: 15,
      filter: "none",
      settings: { maxQueries: 8 },
    });
    add({ account: "demo", today, range: "last300d", tz: "UTC", hour: 15, filter: "none" });
    add({ account: "generated-60", today, range: "last200d", tz: "UTC", hour: 15, filter: "group" });
    // A large account: chunked groups, with and without a group filter.
    const big = { maxQueries: 500, chunkSize: 400, concurrency: 6 };
    for (const filter of ["none", "group"] as const)
      add({ account: "generated-2400", today, range: "last14d", tz: "UTC", hour: 15, filter, settings: big });
    add({ account: "generated-2400", today, range: "last7d", tz: "UTC", hour: 15, filter: "none" });
  }
  return [...out.values()];
}

/** A world of one emulator (at one "today") and digest services over a Redis connection. */
export interface GoldenWorld {
  run(c: GoldenCase): Promise<GoldenOutcome>;
  /**
   * Cases that differ only in their range (one account, filter, zone, hour, settings), as a slot's
   * deliveries: their drivers planned and warmed together, then each digest built. `slices` counts
   * the slices requests the whole group made. `joined`: nobody plans them; every digest is asked at
   * once (many people at the same moment) and they join one another's computation. `account`: like
   * `joined`, with the account's cases of every filter asked at once (team channels).
   */
  runPlanned(
    cases: GoldenCase[],
    how?: "warmed" | "joined" | "account",
  ): Promise<{ outcomes: Record<string, GoldenOutcome>; slices: number }>;
  close(): Promise<void>;
}

const TEAM = (i: number) => ({ teamId: `T0GOLD${String(i).padStart(3, "0")}` });

/** The filters a case stands for, from the account's own lists. */
function filtersOf(
  c: GoldenCase,
  apiKey: string,
): { assetIds?: string[]; scannerIds?: string[]; assetGroups?: string[] } {
  const account = accountFor(apiKey);
  if (!account) throw new Error(`unknown account ${apiKey}`);
  const groups = groupAssets(account.assets);
  // The second-largest group (the largest is often most of a small account), and the second scanner.
  const group = (groups[1] ?? groups[0])?.name as string;
  const scanner = (account.scanners[1] ?? account.scanners[0])?.value as string;
  switch (c.filter) {
    case "none":
      return {};
    case "scanner":
      return { scannerIds: [scanner] };
    case "group":
      return { assetGroups: [group] };
    case "assets":
      return {
        assetIds: [account.assets[0]?.value as string, account.assets[3]?.value as string].filter(Boolean),
      };
    case "scanner+group":
      return { scannerIds: [scanner], assetGroups: [group] };
  }
}

/** Starts an emulator whose today is `today` and returns a runner for the cases of that day. */
export async function goldenWorld(redis: RedisClient, today: string): Promise<GoldenWorld> {
  const emu = await startEmulator({
    today: () => today,
    accounts: GOLDEN_ACCOUNTS.filter((a) => "assetCount" in a).map((a) => ({
      apiKey: a.apiKey,
      assetCount: "assetCount" in a ? a.assetCount : undefined,
      scannerCount: "scannerCount" in a ? a.scannerCount : undefined,
    })),
  });
  const keyring = parseKeyring(`k1:${randomBytes(32).toString("base64")}`);
  const client = createAnalyticsClient({
    graphqlUrl: emu.graphqlUrl,
    timeoutMs: 60_000,
    logger: silentLogger(),
  });
  let n = 0;
  let slicesAsked = 0;
  const counting: SlicesSource = {
    slices: (key, queries) => {
      slicesAsked++;
      return client.slices(key, queries);
    },
  };
  const serviceFor = async (
    apiKey: string,
    settings: DriversSettings,
    planned = false,
  ): Promise<DigestService> => {
    // A fresh prefix per case: nothing one case cached can shape another.
    const prefix = `golden-${randomBytes(4).toString("hex")}-${n++}`;
    const apiKeys = createApiKeyStore({ redis, keyring, prefix });
    await apiKeys.save(TEAM(0), apiKey, { savedBy: "U0GOLDEN", savedAt: `${today}T00:00:00.000Z` });
    const insights = createInsightsCache({
      redis,
      keys: createKeyScheme({ prefix }),
      client,
      logger: silentLogger(),
    });
    const keys = createKeyScheme({ prefix });
    const shared = planned
      ? {
          driversCache: createDriversCache({ redis, keys, secret: randomBytes(32), logger: silentLogger() }),
          driversPlanner: createDriversPlanner(),
        }
      : {};
    return createDigestService({
      apiKeys,
      insights,
      slices: counting,
      drivers: settings,
      logger: silentLogger(),
      ...shared,
    });
  };
  const outcomeOf = (view: DigestView): GoldenOutcome => ({
    // The fields the record holds (a field added to the view since is checked by its own tests).
    drivers: view.drivers
      ? {
          drivers: view.drivers.drivers,
          gaps: view.drivers.gaps,
          groups: view.drivers.groups,
          queries: view.drivers.queries,
          unqueriedGroups: view.drivers.unqueriedGroups,
        }
      : null,
    previousSeries: view.previousSeries ?? null,
    digest: { violations: view.digest.violations, findings: view.digest.findings },
  });
  return {
    async run(c) {
      const account = GOLDEN_ACCOUNTS.find((a) => a.name === c.account);
      if (!account) throw new Error(`unknown account ${c.account}`);
      const digests = await serviceFor(account.apiKey, { ...DEFAULT_DRIVERS, ...c.settings });
      const now = new Date(`${c.today}T${String(c.hour).padStart(2, "0")}:00:00Z`);
      try {
        const { view } = await digests.build({
          ref: TEAM(0),
          range: c.range,
          tz: c.tz,
          now,
          drivers: "required",
          ...filtersOf(c, account.apiKey),
        });
        return outcomeOf(view);
      } catch (err) {
        if (err instanceof AppError) return { error: err.code };
        throw err;
      }
    },
    async runPlanned(cases, how = "warmed") {
      const c0 = cases[0] as GoldenCase;
      const account = GOLDEN_ACCOUNTS.find((a) => a.name === c0.account);
      if (!account) throw new Error(`unknown account ${c0.account}`);
      const digests = await serviceFor(account.apiKey, { ...DEFAULT_DRIVERS, ...c0.settings }, true);
      const now = new Date(`${c0.today}T${String(c0.hour).padStart(2, "0")}:00:00Z`);
      // Filters by id, as a subscription stores them (a group stands for its assets).
      const assets = accountFor(account.apiKey)?.assets ?? [];
      const idsOf = (c: GoldenCase) => {
        const f = filtersOf(c, account.apiKey);
        return {
          assetIds: [...(f.assetIds ?? []), ...assetIdsOfGroups(assets, f.assetGroups ?? [])],
          scannerIds: f.scannerIds ?? [],
        };
      };
      const before = slicesAsked;
      if (how === "warmed")
        await digests.warmDrivers(
          TEAM(0),
          cases.map((c) => ({ range: c.range, tz: c.tz, now, ...idsOf(c) })),
        );
      const outcomes: Record<string, GoldenOutcome> = {};
      const build = async (c: GoldenCase) => {
        try {
          const { view } = await digests.build({
            ref: TEAM(0),
            range: c.range,
            tz: c.tz,
            now,
            drivers: "required",
            ...idsOf(c),
          });
          outcomes[c.id] = outcomeOf(view);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          outcomes[c.id] = { error: err.code };
        }
      };
      if (how !== "warmed") await Promise.all(cases.map(build));
      else for (const c of cases) await build(c);
      return { outcomes, slices: slicesAsked - before };
    },
    close: () => emu.close(),
  };
}

/** Every case's outcome, keyed by case id, computed one "today" at a time. */
export async function runGoldenCases(
  redis: RedisClient,
  cases: GoldenCase[] = goldenCases(),
): Promise<Record<string, GoldenOutcome>> {
  const out: Record<string, GoldenOutcome> = {};
  for (const today of GOLDEN_TODAYS) {
    const world = await goldenWorld(redis, today);
    try {
      for (const c of cases.filter((x) => x.today === today)) out[c.id] = await world.run(c);
    } finally {
      await world.close();
    }
  }
  return out;
}

/**
 * The cases again, each group of them that differs only in range planned together like a slot's
 * deliveries (or all asked at once, joining one another's computation; `account`: every filter of
 * an account together); the outcomes, and the slices requests and digests per group.
 */
export async function runGoldenCasesPlanned(
  redis: RedisClient,
  cases: GoldenCase[] = goldenCases(),
  how: "warmed" | "joined" | "account" = "warmed",
): Promise<{ outcomes: Record<string, GoldenOutcome>; groups: { digests: number; slices: number }[] }> {
  const outcomes: Record<string, GoldenOutcome> = {};
  const groups: { digests: number; slices: number }[] = [];
  for (const today of GOLDEN_TODAYS) {
    const world = await goldenWorld(redis, today);
    try {
      const byGroup = new Map<string, GoldenCase[]>();
      for (const c of cases.filter((x) => x.today === today)) {
        const g = JSON.stringify([
          c.account,
          how === "account" ? "" : c.filter,
          c.tz,
          c.hour,
          c.settings ?? null,
        ]);
        byGroup.set(g, [...(byGroup.get(g) ?? []), c]);
      }
      for (const group of byGroup.values()) {
        const r = await world.runPlanned(group, how);
        Object.assign(outcomes, r.outcomes);
        groups.push({ digests: group.length, slices: r.slices });
      }
    } finally {
      await world.close();
    }
  }
  return { outcomes, groups };
}
