import type { InsightsFilters, InsightsResult } from "../../src/analytics/types.ts";
import type { Account } from "./accounts.ts";
import { type Counts, countsFor } from "./counts.ts";
import { daysInRange, timeStampOf } from "./days.ts";
import { previousRange, resolveRange } from "./range.ts";

/** The arguments of the `insights` root field, as GraphQL hands them over (all nullable). */
export interface InsightsArgs {
  fromDay?: string | null;
  toDay?: string | null;
  maxRules?: number | null;
  filters?: { scannerIds?: readonly string[] | null; assetIds?: readonly string[] | null } | null;
}

function sum(series: Counts[]): Counts {
  const total: Counts = { findings: 0, violations: 0, fixedViolations: 0, mergedViolations: 0 };
  for (const c of series) {
    total.findings += c.findings;
    total.violations += c.violations;
    total.fixedViolations += c.fixedViolations;
    total.mergedViolations += c.mergedViolations;
  }
  return total;
}

/** The account's full filter lists; they never depend on the active filter. */
export function filterOptions(account: Account): InsightsFilters {
  return {
    scannerId: account.scanners.map((o) => ({ ...o })),
    assetId: account.assets.map((o) => ({ ...o })),
  };
}

/**
 * The `insights` reply: one entry per day of the range (ascending, inclusive), summary sums over the
 * range, `previous` over the equally long period before it. `maxRules` is accepted and has no effect:
 * the emulator models no rule-level data. Each part is computed when first read, so a query pays for
 * what it selects (a drivers slice asks for the daily lists only: no previous period, no filter
 * lists), as a real service's resolvers would; the answer is the same whichever parts are read.
 */
export function computeInsights(
  account: Account,
  args: InsightsArgs,
  today: string,
): Required<InsightsResult> {
  const range = resolveRange(args.fromDay, args.toDay, today);
  const count = countsFor(
    account,
    args.filters?.assetIds ?? undefined,
    args.filters?.scannerIds ?? undefined,
    today,
  );
  const days = daysInRange(range.from, range.to);
  const once = <T>(make: () => T) => {
    let value: T | undefined;
    return () => {
      value ??= make();
      return value;
    };
  };
  const series = once(() => days.map(count));
  const dailyMetric = once(() =>
    series().map((c, i) => ({
      timeStamp: timeStampOf(days[i] as string),
      violations: c.violations,
      findings: c.findings,
    })),
  );
  const dailyActivity = once(() =>
    series().map((c, i) => ({
      timeStamp: timeStampOf(days[i] as string),
      fixedViolations: c.fixedViolations,
      mergedViolations: c.mergedViolations,
    })),
  );
  const summary = once(() => {
    const before = previousRange(range);
    const current = sum(series());
    const previous = sum(daysInRange(before.from, before.to).map(count));
    return {
      findings: { previous: previous.findings, current: current.findings },
      violations: { previous: previous.violations, current: current.violations },
      fixes: current.fixedViolations,
      mergedViolations: current.mergedViolations,
    };
  });
  const filters = once(() => filterOptions(account));
  return {
    get dailyMetric() {
      return dailyMetric();
    },
    get dailyActivity() {
      return dailyActivity();
    },
    get summary() {
      return summary();
    },
    get filters() {
      return filters();
    },
  };
}
