import { sparkline } from "./sparkline.ts";
import type { DayPoint, Trend, TrendPoint } from "./types.ts";

/**
 * Peak and quietest day by violations, and the sparkline of daily violations. Gaps are ignored
 * (a missing day is neither the quietest nor zero); ties go to the earliest day.
 */
export function computeTrend(points: readonly DayPoint[], maxWidth?: number): Trend {
  let peak: TrendPoint | null = null;
  let quietest: TrendPoint | null = null;
  for (const p of points) {
    if (p.violations === null) continue;
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
