import type { FilterOption, IsoDay } from "../analytics/types.ts";
import { groupAssets } from "../insights/asset-groups.ts";
import { addDays } from "../insights/days.ts";
import type { Dimension } from "../insights/drivers.ts";
import type { Periods } from "../insights/period-totals.ts";
import { assetChunks } from "./chunked-fetch.ts";

/**
 * Which queries the drivers of one digest make, within a budget.
 *
 * Every slice (the whole digest, each scanner, each top-level asset group) is judged over the days
 * the digest and the gap rule need: its two periods and the rule's baseline before the previous one
 * (its window). Those days are cut into ranges the service answers (366 days at most), the most
 * recent ending on the digest's last day; the budget counts them. Gaps are judged over the history
 * the drivers have always looked at, 366 days back from that day (732 when the periods and baseline
 * reach past them). The slices are first asked for their windows, or for the periods alone, and a
 * few days more (`fetchFrom`, `FirstAsk`); a slice whose silence needs days before those, its baseline
 * or where it began, gets them fetched after its series is in (see `historyDaysNeeded`), so the
 * rule finds exactly what it finds on the whole.
 *
 * The budget counts queries (chunks × ranges). The whole digest comes first, then scanners, then
 * asset groups from the largest; what does not fit is not named and ends up in the "other" row.
 */

/** The longest range the service answers in one query. */
const WINDOW_DAYS = 366;

export interface Window {
  fromDay: IsoDay;
  toDay: IsoDay;
}

export interface PlannedSlice {
  dimension: Dimension | "total";
  key: string;
  label: string;
  /** Asset filter chunks (`[[]]`: none); one query per chunk and window. */
  chunks: string[][];
  scannerIds: string[];
}

export interface DriversPlan {
  windows: Window[];
  /** The days before `windows` a slice silent since before its previous period is judged over. */
  history: Window | null;
  total: PlannedSlice;
  slices: PlannedSlice[];
  /** Slices of a dimension with one member equal the total: named without a query. */
  trivial: { dimension: Dimension; key: string; label: string }[];
  unqueriedGroups: number;
  unqueriedScanners: number;
  queries: number;
}

export interface PlanInput {
  periods: Periods;
  /** The digest's asset filter, groups expanded; empty = all assets. */
  assetIds: string[];
  /** The digest's scanner filter; empty = all scanners. */
  scannerIds: string[];
  assets: readonly FilterOption[];
  scanners: readonly FilterOption[];
  baselineDays: number;
  maxQueries: number;
  chunkSize: number;
}

/**
 * The ranges the slices are asked for (one, or two when the days pass the service's longest range),
 * and the history before them a slice's silence may need: both within the 366 (or 732) days before
 * the digest's last day.
 */
export function windowsFor(
  periods: Periods,
  baselineDays: number,
): { windows: Window[]; history: Window | null } {
  const to = periods.to;
  const recentFrom = addDays(to, 1 - WINDOW_DAYS);
  const wanted = addDays(periods.previousFrom, -baselineDays);
  const historyFrom = wanted >= recentFrom ? recentFrom : addDays(recentFrom, -WINDOW_DAYS);
  // ISO days compare as text: the later of the two.
  const from = [wanted, historyFrom].sort()[1] as IsoDay;
  const history = from > historyFrom ? { fromDay: historyFrom, toDay: addDays(from, -1) } : null;
  return { windows: rangesOf(from, to), history };
}

/**
 * How a computation first asks its slices. `window`: every slice's whole window (its periods and the
 * rule's baseline) and a week before it, so a silence needs a second request only when its baseline
 * reaches past that week: the fewest round trips, for an answer someone is waiting for. `periods`:
 * the periods and two weeks before them, and the baseline after, only for the slices whose silences
 * the rule may call gaps: about a third fewer days asked for a slot's deliveries, where the
 * service's and the worker's work per day asked bounds a storm, for a second request in about half
 * of the computations.
 */
export type FirstAsk = "window" | "periods";

/** Days asked before the windows in `window` mode [7]: in the bench's storms nearly every silence that needed more reached back a week or less. */
export const WINDOW_LEAD_DAYS = 7;

/**
 * Days asked before the earliest previous period in `periods` mode [14]. The two weekends these days
 * hold rule out the silences of a slice that is quiet every weekend (historyDaysNeeded), which would
 * otherwise each cost their baseline.
 */
export const PERIODS_LEAD_DAYS = 14;

/**
 * The first day the slices of `plans` (one per entry of `periodsList`) are first asked from. A plan
 * without history reads its whole window from its start either way. In `window` mode the earliest
 * window and a week before it, never before the earliest history (a history starts where a range of
 * `windowsFor` would, so the lead never makes the days need one more range); in `periods` mode each
 * plan's periods and two weeks before them, never before its window.
 */
export function fetchFrom(
  plans: readonly DriversPlan[],
  periodsList: readonly Periods[],
  mode: FirstAsk,
): IsoDay {
  const starts = plans.map((plan, g) => {
    const start = (plan.windows[0] as Window).fromDay;
    if (!plan.history) return start;
    const early =
      mode === "window"
        ? addDays(start, -WINDOW_LEAD_DAYS)
        : addDays((periodsList[g] as Periods).previousFrom, -PERIODS_LEAD_DAYS);
    const limit = mode === "window" ? plan.history.fromDay : start;
    // ISO days compare as text: the later of the day and the limit.
    return [early, limit].sort()[1] as IsoDay;
  });
  return starts.sort()[0] as IsoDay;
}

/** `from..to` in ranges the service answers: 366 days at most, the most recent ending on `to`. */
export function rangesOf(from: IsoDay, to: IsoDay): Window[] {
  const out: Window[] = [];
  for (let end = to; end >= from; end = addDays(end, -WINDOW_DAYS)) {
    const start = addDays(end, 1 - WINDOW_DAYS);
    out.unshift({ fromDay: start > from ? start : from, toDay: end });
  }
  return out;
}

/** The plan, or null when even the whole digest does not fit the budget. */
export function planDrivers(input: PlanInput): DriversPlan | null {
  return plansFor(input, [input.periods])[0] ?? null;
}

/** What a plan asks for, apart from its days: it depends on the periods only through the number of ranges. */
type SlicesPlan = Omit<DriversPlan, "windows" | "history">;

/**
 * The plans of several digests that share everything but their periods (a bucket's): the slices are
 * worked out once per number of ranges, and plans with as many ranges hold the very same slices, so
 * a caller can tell by reference that they ask for the same.
 */
export function plansFor(
  base: Omit<PlanInput, "periods">,
  periodsList: readonly Periods[],
): (DriversPlan | null)[] {
  const bySize = new Map<number, SlicesPlan | null>();
  return periodsList.map((periods) => {
    const { windows, history } = windowsFor(periods, base.baselineDays);
    let slices = bySize.get(windows.length);
    if (slices === undefined) {
      slices = planSlices(base, windows.length);
      bySize.set(windows.length, slices);
    }
    return slices && { windows, history, ...slices };
  });
}

function planSlices(input: Omit<PlanInput, "periods">, ranges: number): SlicesPlan | null {
  const cost = (s: PlannedSlice) => s.chunks.length * ranges;
  const scope = input.assetIds.length > 0 ? new Set(input.assetIds) : undefined;
  const total: PlannedSlice = {
    dimension: "total",
    key: "*",
    label: "everything in this digest",
    chunks: assetChunks(input.assetIds, input.chunkSize),
    scannerIds: input.scannerIds,
  };
  let queries = cost(total);
  if (queries > input.maxQueries) return null;

  const scannerIds = input.scannerIds.length > 0 ? input.scannerIds : input.scanners.map((s) => s.value);
  const scannerName = new Map(input.scanners.map((s) => [s.value, s.displayValue.trim() || s.value]));
  const groups = groupAssets(input.assets, scope);
  const candidates: PlannedSlice[] = [
    ...(scannerIds.length > 1
      ? scannerIds.map((id) => ({
          dimension: "scanner" as const,
          key: id,
          label: scannerName.get(id) ?? id,
          chunks: total.chunks,
          scannerIds: [id],
        }))
      : []),
    ...(groups.length > 1
      ? groups.map((g) => ({
          dimension: "group" as const,
          key: g.name,
          label: g.label,
          chunks: assetChunks(g.assetIds, input.chunkSize),
          scannerIds: input.scannerIds,
        }))
      : []),
  ];
  const slices: PlannedSlice[] = [];
  let unqueriedGroups = 0;
  let unqueriedScanners = 0;
  for (const slice of candidates) {
    if (queries + cost(slice) <= input.maxQueries) {
      slices.push(slice);
      queries += cost(slice);
    } else if (slice.dimension === "group") unqueriedGroups++;
    else unqueriedScanners++;
  }
  const trivial: DriversPlan["trivial"] = [];
  const only = scannerIds[0];
  if (scannerIds.length === 1 && only !== undefined)
    trivial.push({ dimension: "scanner", key: only, label: scannerName.get(only) ?? only });
  const group = groups[0];
  if (groups.length === 1 && group) trivial.push({ dimension: "group", key: group.name, label: group.label });
  return { total, slices, trivial, unqueriedGroups, unqueriedScanners, queries };
}
