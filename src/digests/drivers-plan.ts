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
 * reach past them). The slices are first asked for the periods and a few days before them
 * (`fetchFrom`); a slice whose silence needs its baseline, or began before those days, gets those
 * days of its history fetched after its series is in (see `historyDaysNeeded`), so the rule finds
 * exactly what it finds on the whole.
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
 * Days asked before the earliest previous period when a plan may judge history [14]. The rule reads a
 * silence's baseline only for the few silences it could call gaps (historyDaysNeeded), so the
 * slices are first asked for the periods and these days alone, not the whole baseline before them;
 * the days held then rule out a slice that is quiet every weekend without its baseline being asked.
 */
export const LEAD_DAYS = 14;

/**
 * The first day the slices of `plans` (one per entry of `periodsList`) are first asked from: a plan
 * that may judge history needs its periods and `lead` days before them (never before its window),
 * the rest of its window only for the slices whose silences need it; a plan without history reads
 * its whole window, from its start.
 */
export function fetchFrom(
  plans: readonly DriversPlan[],
  periodsList: readonly Periods[],
  lead = LEAD_DAYS,
): IsoDay {
  const starts = plans.map((plan, g) => {
    const start = (plan.windows[0] as Window).fromDay;
    const previousFrom = (periodsList[g] as Periods).previousFrom;
    if (!plan.history) return start;
    const early = addDays(previousFrom, -lead);
    // ISO days compare as text: the later of the two.
    return early > start ? early : start;
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
