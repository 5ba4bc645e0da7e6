import type { GraphQLFieldConfig } from "graphql";
import type { Account } from "./accounts.ts";
import { countsFor, isScanned } from "./counts.ts";
import { DateScalar } from "./date-scalar.ts";
import { addDays, dayNumber, daysInRange, timeStampOf } from "./days.ts";
import { graphql } from "./graphql-lib.ts";
import { hashInts, hashString } from "./hash.ts";
import { type DayRange, EmulatorInputError, resolveRange } from "./range.ts";
import { asGraphQLError, InsightsFiltersInput, type ResolverContext } from "./schema-common.ts";
import { int, listOf, nn, objectType, str } from "./schema-types.ts";

const { GraphQLFloat, GraphQLInt } = graphql;

/*
 * The five root fields whose shapes the contract does not show. They are small and plausible,
 * derived from the same per-cell data as `insights` so the numbers agree with each other.
 */

type Field = GraphQLFieldConfig<unknown, ResolverContext>;
type RangeArgs = { fromDay?: string | null; toDay?: string | null };

const rangeArgs = { fromDay: { type: DateScalar }, toDay: { type: DateScalar } };

function scannedAssetIndexes(account: Account): number[] {
  return account.assets.flatMap((_, a) =>
    account.scanners.some((_, s) => isScanned(account, a, s)) ? [a] : [],
  );
}

/** Scans per day: every scanned (asset, scanner) pair about once a weekday, fewer at weekends. */
function scansOn(account: Account, day: string, pairs: number): { scans: number; failedScans: number } {
  const d = dayNumber(day);
  const weekday = (((d + 4) % 7) + 7) % 7;
  const h = hashInts(hashString(account.apiKey), d, 77);
  const scans = Math.round(
    pairs * (weekday === 0 || weekday === 6 ? 0.25 : 1) * (0.8 + 0.4 * ((h & 0xffff) / 65_536)),
  );
  return { scans, failedScans: Math.floor(scans * 0.04 + (h >>> 24) / 256) };
}

function scanSeries(account: Account, range: DayRange) {
  let pairs = 0;
  account.assets.forEach((_, a) => {
    account.scanners.forEach((_, s) => {
      if (isScanned(account, a, s)) pairs++;
    });
  });
  return daysInRange(range.from, range.to).map((day) => ({
    timeStamp: timeStampOf(day),
    ...scansOn(account, day, pairs),
  }));
}

const ProjectsPosture = objectType(
  "ProjectsPosture",
  {
    asOf: nn(DateScalar),
    totalProjects: int,
    projectsWithViolations: int,
    cleanProjects: int,
    unscannedProjects: int,
  },
  "Projects (assets) over the 30 days ending today: with violations, clean, never scanned.",
);
const RepositoryRank = objectType("RepositoryRank", {
  assetId: str,
  displayValue: str,
  findings: int,
  violations: int,
});
const ScannerCoverage = objectType("ScannerCoverage", { scannerId: str, displayValue: str, assets: int });
const Coverage = objectType("Coverage", {
  totalAssets: int,
  scannedAssets: int,
  byScanner: listOf(ScannerCoverage),
});
const ScanDay = objectType("ScanDay", { timeStamp: str, scans: int, failedScans: int });
const ScanSummary = objectType("ScanSummary", {
  totalScans: int,
  failedScans: int,
  successRate: nn(GraphQLFloat),
});

const projectsPosture: Field = {
  type: nn(ProjectsPosture),
  args: { filters: { type: InsightsFiltersInput } },
  resolve: (_root, args: { filters?: { assetIds?: string[] | null } | null }, { account, today }) => {
    const wanted = args.filters?.assetIds?.length ? new Set(args.filters.assetIds) : undefined;
    const indexes = account.assets.flatMap((o, i) => (!wanted || wanted.has(o.value) ? [i] : []));
    const scanned = new Set(scannedAssetIndexes(account));
    const days = daysInRange(addDays(today, -29), today);
    let withViolations = 0;
    for (const i of indexes) {
      const count = countsFor(account, [account.assets[i]?.value ?? ""]);
      if (days.some((day) => count(day).violations > 0)) withViolations++;
    }
    const unscanned = indexes.filter((i) => !scanned.has(i)).length;
    return {
      asOf: today,
      totalProjects: indexes.length,
      projectsWithViolations: withViolations,
      cleanProjects: indexes.length - withViolations - unscanned,
      unscannedProjects: unscanned,
    };
  },
};

const topRepositories: Field = {
  type: listOf(RepositoryRank),
  description: "Assets with the most violations in the range (default: last 7 days), most first.",
  args: { ...rangeArgs, limit: { type: GraphQLInt, defaultValue: 5 } },
  resolve: (_root, args: RangeArgs & { limit: number }, { account, today }) =>
    asGraphQLError(() => {
      if (args.limit < 1 || args.limit > 100)
        throw new EmulatorInputError("limit must be between 1 and 100.");
      const range = resolveRange(args.fromDay, args.toDay, today);
      const days = daysInRange(range.from, range.to);
      const ranks = account.assets.map((asset) => {
        const count = countsFor(account, [asset.value]);
        let findings = 0;
        let violations = 0;
        for (const day of days) {
          const c = count(day);
          findings += c.findings;
          violations += c.violations;
        }
        return { assetId: asset.value, displayValue: asset.displayValue, findings, violations };
      });
      ranks.sort((x, y) => y.violations - x.violations || x.displayValue.localeCompare(y.displayValue));
      return ranks.slice(0, args.limit);
    }),
};

const coverage: Field = {
  type: nn(Coverage),
  resolve: (_root, _args, { account }) => ({
    totalAssets: account.assets.length,
    scannedAssets: scannedAssetIndexes(account).length,
    byScanner: account.scanners.map((scanner, s) => ({
      scannerId: scanner.value,
      displayValue: scanner.displayValue,
      assets: account.assets.filter((_, a) => isScanned(account, a, s)).length,
    })),
  }),
};

const scanMetrics: Field = {
  type: listOf(ScanDay),
  description: "Scans per day over the range (default: last 7 days), ascending.",
  args: rangeArgs,
  resolve: (_root, args: RangeArgs, { account, today }) =>
    asGraphQLError(() => scanSeries(account, resolveRange(args.fromDay, args.toDay, today))),
};

const scanSummaryMetrics: Field = {
  type: nn(ScanSummary),
  description: "Totals of scanMetrics over the range.",
  args: rangeArgs,
  resolve: (_root, args: RangeArgs, { account, today }) =>
    asGraphQLError(() => {
      const series = scanSeries(account, resolveRange(args.fromDay, args.toDay, today));
      const totalScans = series.reduce((n, d) => n + d.scans, 0);
      const failedScans = series.reduce((n, d) => n + d.failedScans, 0);
      return {
        totalScans,
        failedScans,
        successRate: totalScans === 0 ? 1 : (totalScans - failedScans) / totalScans,
      };
    }),
};

/** The five non-insights root fields, keyed by their names. */
export function otherRootFields(): Record<
  "projectsPosture" | "topRepositories" | "coverage" | "scanMetrics" | "scanSummaryMetrics",
  Field
> {
  return { projectsPosture, topRepositories, coverage, scanMetrics, scanSummaryMetrics };
}
