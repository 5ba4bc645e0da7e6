import type { FilterOption, InsightsQuery } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { computeDrivers, type Slice } from "../insights/drivers.ts";
import { type ActivitySeries, DEFAULT_GAP_RULE, findGaps, type GapRule } from "../insights/gaps.ts";
import { addSeries, type Periods, totalsOf } from "../insights/period-totals.ts";
import { repairSeries } from "../insights/series.ts";
import type { DayPoint, DriversView } from "../insights/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { type PlannedSlice, planDrivers, type Window } from "./drivers-plan.ts";
import type { InsightsCache } from "./insights-cache.ts";

/** How drivers spend queries; defaults are the documented ones (.env.example). */
export interface DriversSettings {
  /** Most GraphQL queries one digest's drivers may make [32]. */
  maxQueries: number;
  /** Asset ids per query [1000]. */
  chunkSize: number;
  /** Queries in flight at once per digest [8]. */
  concurrency: number;
}

export const DEFAULT_DRIVERS: DriversSettings = { maxQueries: 32, chunkSize: 1000, concurrency: 8 };

export interface DriversRequest {
  ref: WorkspaceRef;
  apiKey: string;
  periods: Periods;
  assetIds: string[];
  scannerIds: string[];
  assets: readonly FilterOption[];
  scanners: readonly FilterOption[];
  partialFrom: string | null;
}

export interface DriversOutcome {
  view: DriversView;
  /** The digest's previous period, day by day (the chart's faint line). */
  previousSeries: DayPoint[];
}

/** Runs `tasks` with at most `limit` in flight; rejects with the first failure. */
async function bounded<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < tasks.length; i = next++) out[i] = await (tasks[i] as () => Promise<T>)();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, lane));
  return out;
}

/** Days of `from..to` from a window series, aligned to the day (for the previous-period line). */
function daysBetween(points: DayPoint[], from: string, to: string): DayPoint[] {
  return points.filter((p) => p.day >= from && p.day <= to);
}

/**
 * The drivers of one digest's change and the data gaps of its slices, from the bounded plan of
 * drivers-plan.ts, every query through the shared insights cache (a digest of the same account
 * ending the same day finds them there, or waits for the request already in flight).
 *
 * @throws AppError `drivers_unavailable` when the digest's own filter is too large for the budget;
 *   analytics errors as the client raised them.
 */
export async function computeDriversView(
  deps: { source: Pick<InsightsCache, "fetch">; settings?: DriversSettings; gapRule?: GapRule },
  req: DriversRequest,
): Promise<DriversOutcome> {
  const settings = deps.settings ?? DEFAULT_DRIVERS;
  const gapRule = deps.gapRule ?? DEFAULT_GAP_RULE;
  const plan = planDrivers({ ...req, baselineDays: gapRule.baselineDays, ...settings });
  if (!plan)
    throw new AppError(
      "drivers_unavailable",
      "This digest's filter holds too many assets to break its change down within the query budget.",
    );
  const planned = [plan.total, ...plan.slices];
  const tasks: (() => Promise<{ slice: number; window: Window; points: DayPoint[] }>)[] = [];
  planned.forEach((slice, s) => {
    for (const window of plan.windows)
      for (const assetIds of slice.chunks) {
        const query: InsightsQuery = { ...window, assetIds, scannerIds: slice.scannerIds };
        tasks.push(async () => {
          const result = await deps.source.fetch(req.ref, req.apiKey, query);
          const { points } = repairSeries(result, { from: window.fromDay, to: window.toDay });
          return { slice: s, window, points };
        });
      }
  });
  const replies = await bounded(tasks, settings.concurrency);
  const seriesOf = (s: number): DayPoint[] =>
    plan.windows.flatMap((w) =>
      replies
        .filter((r) => r.slice === s && r.window === w)
        .map((r) => r.points)
        .reduce((a, b) => addSeries(a, b)),
    );
  const series = planned.map((_, s) => seriesOf(s));
  const totalSeries = series[0] as DayPoint[];
  const total = totalsOf(totalSeries, req.periods);
  const sliceOf = (p: PlannedSlice, points: DayPoint[]): Slice => ({
    dimension: p.dimension as Slice["dimension"],
    key: p.key,
    label: p.label,
    totals: totalsOf(points, req.periods),
  });
  const slices: Slice[] = [
    ...plan.slices.map((p, i) => sliceOf(p, series[i + 1] as DayPoint[])),
    ...plan.trivial.map((t) => ({ ...t, totals: total })),
  ];
  const activity: ActivitySeries[] = planned.map((p, s) => ({
    dimension: p.dimension,
    key: p.key,
    label: p.label,
    points: series[s] as DayPoint[],
  }));
  const gaps = findGaps(activity, gapRule, { periods: req.periods, partialFrom: req.partialFrom });
  const drivers = computeDrivers({ total, slices });
  // Buttons in the order a reader meets the groups: violations up, then down, then findings, fixes.
  const labelOf = new Map<string, string>();
  for (const b of drivers.breakdowns)
    if (b.dimension === "group")
      for (const c of [...b.up, ...b.down])
        if (c.key !== null && !labelOf.has(c.key)) labelOf.set(c.key, c.label);
  const groups = [...labelOf].map(([name, label]) => ({ name, label }));
  return {
    view: {
      drivers,
      gaps,
      groups,
      queries: plan.queries,
      unqueriedGroups: plan.unqueriedGroups,
      unqueriedScanners: plan.unqueriedScanners,
    },
    previousSeries: daysBetween(totalSeries, req.periods.previousFrom, req.periods.previousTo),
  };
}
