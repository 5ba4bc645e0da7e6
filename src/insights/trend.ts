import type { IsoDay } from "../analytics/types.ts";
import { sparkline } from "./sparkline.ts";
import type { DayPoint, Trend, TrendPoint } from "./types.ts";

/**
 * Peak and quietest day by violations, and the sparkline of daily violations. Gaps are ignored
 * (a missing day is neither the quietest nor zero), and so are days from `partialFrom` on: today so
 * far is not a full day to rank; ties go to the earliest day.
 */
export function computeTrend(
  points: readonly DayPoint[],
  maxWidth?: number,
  partialFrom: IsoDay | null = null,
): Trend {
  let peak: TrendPoint | null = null;
  let quietest: TrendPoint | null = null;
  for (const p of points) {
    if (p.violations === null || (partialFrom !== null && p.day >= partialFrom)) continue;
    if (peak === null || p.violations > peak.value) peak = { day: p.day, value: p.violations };
    if (quietest === null || p.violations < quietest.value) quietest = { day: p.day, value: p.violations };
  }
  return {
    peak,
    quietest,
    sparkline: sparkline(
      points.map((p) => p.violations),
      maxWidth,
    ),
  };
}
