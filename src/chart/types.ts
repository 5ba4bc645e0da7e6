import type { IsoDay } from "../analytics/types.ts";
import type { DayPoint } from "../insights/types.ts";

/** The series the chart draws, in drawing order (later ones on top). */
export type SeriesKey = "findings" | "violations" | "fixed";

/** What one chart shows. Text fields are untrusted (asset names) and are escaped on the way in. */
export interface ChartInput {
  /** One point per day, ascending; null values are gaps, drawn as breaks in the line. */
  series: DayPoint[];
  title: string;
  subtitle?: string;
  /** Pixels; default 800, clamped to 320..2000. */
  width?: number;
  /** Pixels; default 400, clamped to 200..1200. */
  height?: number;
  /** Legend text per series; defaults to "Findings", "Violations", "Fixes" (the digest's words). */
  labels?: Partial<Record<SeriesKey, string>>;
  /**
   * The previous period, day i under day i of `series`: drawn as faint dashed lines beneath the
   * current ones, so the comparison the digest states can be seen. Extra days are ignored.
   */
  previous?: DayPoint[];
  /** First day still being filled (today so far): shaded, so a low last point does not read as a drop. */
  partialFrom?: IsoDay | null;
}
