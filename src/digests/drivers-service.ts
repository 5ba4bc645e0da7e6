import type { FilterOption, IsoDay } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { addDays } from "../insights/days.ts";
import { computeDrivers, type Slice } from "../insights/drivers.ts";
import {
  byImportance,
  type DataGap,
  DEFAULT_GAP_RULE,
  type GapIndex,
  type GapRule,
  gapIndexFrom,
  gapsFrom,
  historyDaysNeeded,
  indexGaps,
} from "../insights/gaps.ts";
import {
  addSeries,
  epochPeriods,
  indexTotals,
  type MeasureTotals,
  type Periods,
  totalsFrom,
} from "../insights/period-totals.ts";
import type { DayPoint, DriversView } from "../insights/types.ts";
import { digestToken } from "../store/keys.ts";
import { fetchParts, type SlicesSource } from "./drivers-fetch.ts";
import {
  type DriversPlan,
  type FirstAsk,
  fetchFrom,
  type PlannedSlice,
  plansFor,
  rangesOf,
  type Window,
} from "./drivers-plan.ts";

/** How drivers spend queries; defaults are the documented ones (.env.example). */
export interface DriversSettings {
  /** Most GraphQL queries (aliased fields) one digest's drivers may make [32]. */
  maxQueries: number;
  /** Asset ids per query [1000]. */
  chunkSize: number;
  /** Requests in flight at once per digest [8]. */
  concurrency: number;
  /** Queries sent together in one request, as aliased fields [32]. */
  batchSize: number;
}

/** Asset ids one slices request may carry: a few chunks' worth. */
export const idsPerRequest = (settings: DriversSettings): number => 4 * settings.chunkSize;

/** What a request of slices may carry (the batcher's bounds) under these settings. */
export const batchLimits = (settings: DriversSettings) => ({
  batchSize: settings.batchSize,
  maxIds: idsPerRequest(settings),
});

export const DEFAULT_DRIVERS: DriversSettings = {
  maxQueries: 32,
  chunkSize: 1000,
  concurrency: 8,
  batchSize: 32,
};

export interface DriversRequest {
  apiKey: string;
  periods: Periods;
  assetIds: string[];
  scannerIds: string[];
  assets: readonly FilterOption[];
  scanners: readonly FilterOption[];
  partialFrom: string | null;
  /** How the slices are first asked [window]: see FirstAsk. The answer is the same either way. */
  firstAsk?: FirstAsk;
}

export interface DriversOutcome {
  view: DriversView;
  /** The digest's previous period, day by day (the chart's faint line). */
  previousSeries: DayPoint[];
}

/**
 * What names a drivers result among an account's: both periods, the filters (order aside), the
 * first partial day (the as-of day: it decides which days the gap rule judges) and every setting
 * that shapes the answer. The account itself is the cache's part of the key.
 */
export function driversRequestKey(
  req: Pick<DriversRequest, "periods" | "assetIds" | "scannerIds" | "partialFrom">,
  settings: DriversSettings,
  gapRule: GapRule = DEFAULT_GAP_RULE,
): string {
  const { from, to, previousFrom, previousTo } = req.periods;
  return digestToken(
    JSON.stringify({
      p: [from, to, previousFrom, previousTo],
      a: [...new Set(req.assetIds)].sort(),
      s: [...new Set(req.scannerIds)].sort(),
      d: req.partialFrom,
      b: [settings.maxQueries, settings.chunkSize],
      g: [
        gapRule.minDays,
        gapRule.baselineDays,
        gapRule.minBaselineDays,
        gapRule.minActiveShare,
        gapRule.minExpected,
      ],
    }),
  );
}

/** Days of `from..to` from a window series, aligned to the day (for the previous-period line). */
function daysBetween(points: DayPoint[], from: string, to: string): DayPoint[] {
  return points.filter((p) => p.day >= from && p.day <= to);
}

/** The parts of `slices`, each over its own windows: one per slice, window and asset chunk, in that order. */
function partsOf(slices: readonly PlannedSlice[], windows: readonly (readonly Window[])[]) {
  return slices.flatMap((slice, s) =>
    (windows[s] ?? []).flatMap((window, w) =>
      slice.chunks.map((assetIds) => ({
        slice: s,
        w,
        part: { label: slice.label, window, assetIds, scannerIds: slice.scannerIds },
      })),
    ),
  );
}

/** Each slice's series over its windows: its chunks summed day by day, its windows one after another. */
async function seriesOver(
  deps: { source: SlicesSource; settings: DriversSettings },
  apiKey: string,
  slices: readonly PlannedSlice[],
  windowsOf: (s: number) => readonly Window[],
): Promise<DayPoint[][]> {
  const windows = slices.map((_, s) => windowsOf(s));
  const planned = partsOf(slices, windows);
  const limits = { ...deps.settings, maxIds: idsPerRequest(deps.settings) };
  const points = await fetchParts(
    deps.source,
    apiKey,
    planned.map((p) => p.part),
    limits,
  );
  // Each slice's chunks per window, in the order planned (one pass: a scan per slice and window
  // made this quadratic in the number of slices).
  const chunks = windows.map((w) => w.map((): DayPoint[][] => []));
  planned.forEach((p, i) => {
    chunks[p.slice]?.[p.w]?.push(points[i] as DayPoint[]);
  });
  return chunks.map((perWindow) => perWindow.flatMap((parts) => parts.reduce((a, b) => addSeries(a, b))));
}

/** What the drivers of several digests share: the account, its lists, the filters, the last day. */
export type DriversBase = Omit<DriversRequest, "periods">;

/**
 * The drivers of several digests of one account that share their filters and their last day (a
 * slot's subscriptions with their own ranges): the slices are asked once, over the days every one of
 * them needs, and each digest's drivers come from its own days of those series — the same numbers
 * as when each is computed alone. Digests whose plans differ (the budget spends differently over one
 * range than over two) are computed apart.
 *
 * @throws AppError `drivers_unavailable` when the digests' filter is too large for the budget;
 *   analytics errors as the client raised them (naming the slices a refused field stood for).
 */
export async function computeDriversMany(
  deps: { source: SlicesSource; settings?: DriversSettings; gapRule?: GapRule },
  base: DriversBase,
  periodsList: readonly Periods[],
): Promise<DriversOutcome[]> {
  const settings = deps.settings ?? DEFAULT_DRIVERS;
  const gapRule = deps.gapRule ?? DEFAULT_GAP_RULE;
  const plans = plansFor({ ...base, baselineDays: gapRule.baselineDays, ...settings }, periodsList);
  const first = plans[0];
  if (!first || plans.some((p) => p === null))
    throw new AppError(
      "drivers_unavailable",
      "This digest's filter holds too many assets to break its change down within the query budget.",
    );
  const to = (periodsList[0] as Periods).to;
  // Plans with as many ranges hold the same slices (plansFor): those can share one fetch.
  const shared = periodsList.every((p) => p.to === to) && plans.every((p) => p?.slices === first.slices);
  if (!shared && periodsList.length > 1)
    return Promise.all(
      periodsList.map(async (p) => (await computeDriversMany(deps, base, [p]))[0] as DriversOutcome),
    );
  const all = plans as DriversPlan[];
  const planned = [first.total, ...first.slices];
  const fetchDeps = { source: deps.source, settings };
  // The windows, or the periods alone, and a few days before them (fetchFrom): the days before those
  // are asked below, for the slices whose silences the rule needs them for.
  const firstDay = fetchFrom(all, periodsList, base.firstAsk ?? "window");
  const ranges = rangesOf(firstDay, to);
  // Each slice's points, one per day, from the first day held.
  const store = await seriesOver(fetchDeps, base.apiKey, planned, () => ranges);
  // Each slice is read once for the gap rule and once for its running sums; every digest then judges
  // and sums its own days of them (see GapIndex and TotalsIndex).
  const gapIndexOf = (s: number): GapIndex => {
    const p = planned[s] as PlannedSlice;
    const series = {
      dimension: p.dimension,
      key: p.key,
      label: p.label,
      points: store[s] as DayPoint[],
    };
    return indexGaps(series, base.partialFrom);
  };
  const gapIndexes = planned.map((_, s) => gapIndexOf(s));
  const judgedFrom = (s: number, day: IsoDay) => gapIndexFrom(gapIndexes[s] as GapIndex, day);
  // A digest's slice with a silence near the first day it holds is judged over the days before it
  // that the rule reads: the baselines of silences that start later (historyDaysNeeded), or the whole
  // history when one starts at that day. `reach[g]` maps each such slice to the first day it is
  // judged from. The first day held is the window's start, or a later one when the slices were asked
  // from nearer the periods (fetchFrom): a silence's baseline is then counted from there.
  const reach = all.map((plan, g) => {
    const out = new Map<number, IsoDay>();
    if (!plan.history) return out;
    const start = (plan.windows[0] as Window).fromDay;
    const periods = periodsList[g] as Periods;
    const floor = plan.history.fromDay;
    planned.forEach((_, s) => {
      const index = gapIndexes[s] as GapIndex;
      const first = judgedFrom(s, start);
      const days = historyDaysNeeded(index, first, gapRule, periods);
      if (days === null) return;
      const held = (index.days[first] as IsoDay | undefined) ?? start;
      const day = Number.isFinite(days) ? addDays(held, -days) : floor;
      // ISO days compare as text: never before the history the plan allows.
      out.set(s, [day, floor].sort()[1] as IsoDay);
    });
    return out;
  });
  // Per slice, the earliest day any digest reads before the bucket's first. Slices read back to a
  // plan's whole history start there; the others all start at the earliest of their days (a few
  // weeks at most): one fetch of at most two ranges, not one range per slice.
  const whole = new Set(all.flatMap((p) => (p.history ? [p.history.fromDay] : [])));
  const earliest = new Map<number, IsoDay>();
  for (const m of reach)
    for (const [s, day] of m) if (day < (earliest.get(s) ?? firstDay)) earliest.set(s, day);
  const near = [...earliest.values()].filter((d) => !whole.has(d)).sort()[0];
  const older = [...earliest.keys()].sort((a, b) => a - b);
  if (older.length > 0) {
    const starts = older.map((s) => {
      const day = earliest.get(s) as IsoDay;
      return whole.has(day) || near === undefined ? day : near;
    });
    const more = await seriesOver(
      fetchDeps,
      base.apiKey,
      older.map((s) => planned[s] as PlannedSlice),
      (k) => rangesOf(starts[k] as IsoDay, addDays(firstDay, -1)),
    );
    older.forEach((s, k) => {
      store[s] = [...(more[k] as DayPoint[]), ...(store[s] as DayPoint[])];
      gapIndexes[s] = gapIndexOf(s);
    });
  }
  const totalsIndexes = store.map((points) => indexTotals(points));
  return all.map((plan, g) => {
    const periods = periodsList[g] as Periods;
    const start = (plan.windows[0] as Window).fromDay;
    const gaps = byImportance(
      planned.flatMap((_, s) => {
        const day = reach[g]?.get(s) ?? start;
        return gapsFrom(gapIndexes[s] as GapIndex, judgedFrom(s, day), gapRule, periods);
      }),
    );
    const bounds = epochPeriods(periods, start);
    const totals = totalsIndexes.map((ix) => totalsFrom(ix, bounds));
    const previousSeries = daysBetween(store[0] as DayPoint[], periods.previousFrom, periods.previousTo);
    return derive(plan, totals, gaps, previousSeries);
  });
}

/** One digest's drivers from its slices' totals (the whole digest first, in plan order) and its gaps. */
function derive(
  plan: DriversPlan,
  totals: MeasureTotals[],
  gaps: DataGap[],
  previousSeries: DayPoint[],
): DriversOutcome {
  const total = totals[0] as MeasureTotals;
  const sliceOf = (p: PlannedSlice, t: MeasureTotals): Slice => ({
    dimension: p.dimension as Slice["dimension"],
    key: p.key,
    label: p.label,
    totals: t,
  });
  const slices: Slice[] = [
    ...plan.slices.map((p, i) => sliceOf(p, totals[i + 1] as MeasureTotals)),
    ...plan.trivial.map((t) => ({ ...t, totals: total })),
  ];
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
    previousSeries,
  };
}

/**
 * The drivers of one digest's change and the data gaps of its slices, from the bounded plan of
 * drivers-plan.ts: every slice's daily series over the digest's periods and the gap rule's baseline
 * (or the periods alone, `firstAsk`), asked as aliased fields in few requests; then, for the slices
 * whose silences need them, the days before those that the rule judges such a silence by.
 *
 * @throws AppError `drivers_unavailable` when the digest's own filter is too large for the budget;
 *   analytics errors as the client raised them (naming the slices a refused field stood for).
 */
export async function computeDriversView(
  deps: { source: SlicesSource; settings?: DriversSettings; gapRule?: GapRule },
  req: DriversRequest,
): Promise<DriversOutcome> {
  const { periods, ...base } = req;
  return (await computeDriversMany(deps, base, [periods]))[0] as DriversOutcome;
}
