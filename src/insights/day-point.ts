import type { IsoDay } from "../analytics/types.ts";

/**
 * One day of the series; null marks a gap (the service left the day out). A leaf of its own, so the
 * modules that compute over days (totals, gaps, drivers) and the view types that hold their results
 * do not import each other in a circle.
 */
export interface DayPoint {
  day: IsoDay;
  findings: number | null;
  violations: number | null;
  fixed: number | null;
  merged: number | null;
}
