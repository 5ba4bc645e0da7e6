import type { FilterOption, InsightsQuery, IsoDay } from "../analytics/types.ts";
import { groupAssets } from "../insights/asset-groups.ts";
import { addDays } from "../insights/days.ts";
import type { Dimension } from "../insights/drivers.ts";
import type { Periods } from "../insights/period-totals.ts";
import { assetChunks } from "./chunked-fetch.ts";

/**
 * Which queries the drivers of one digest make, within a budget.
 *
 * Every slice (the whole digest, each scanner, each top-level asset group) is asked for its daily
 * series over a fixed window ending on the digest's last day: the service's longest range, 366
 * days, and the 366 before it when the digest's two periods and the gap rule's baseline need more.
 * Sums over any range ending that day come from those series, so digests of one account that end
 * on the same day — last7d, last30d, thismonth — ask the same questions and share one cached
 * reply per slice; and the long window gives the gap rule a baseline before the silence it judges.
 *
 * The budget counts queries (chunks × windows). The whole digest comes first, then scanners, then
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

/** One window, or two when the periods plus the gap rule's baseline reach past the first. */
export function windowsFor(periods: Periods, baselineDays: number): Window[] {
  const recent = { fromDay: addDays(periods.to, 1 - WINDOW_DAYS), toDay: periods.to };
  if (addDays(periods.previousFrom, -baselineDays) >= recent.fromDay) return [recent];
  const older = { fromDay: addDays(recent.fromDay, -WINDOW_DAYS), toDay: addDays(recent.fromDay, -1) };
  return [older, recent];
}

/**
 * The queries of the plan's first slice (the whole digest), known before the digest's own reply: a
 * caller may start them alongside it, and the plan then finds them in flight or in the cache.
 */
export function totalQueries(
  periods: Periods,
  assetIds: string[],
  scannerIds: string[],
  o: { chunkSize: number; baselineDays: number },
): InsightsQuery[] {
  return windowsFor(periods, o.baselineDays).flatMap((w) =>
    assetChunks(assetIds, o.chunkSize).map((chunk) => ({ ...w, assetIds: chunk, scannerIds })),
  );
}

/** The plan, or null when even the whole digest does not fit the budget. */
export function planDrivers(input: PlanInput): DriversPlan | null {
  const windows = windowsFor(input.periods, input.baselineDays);
  const cost = (s: PlannedSlice) => s.chunks.length * windows.length;
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
  return { windows, total, slices, trivial, unqueriedGroups, unqueriedScanners, queries };
}
