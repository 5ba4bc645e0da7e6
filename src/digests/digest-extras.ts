import type { InsightsQuery } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import type { GapRule } from "../insights/gaps.ts";
import { repairSeries } from "../insights/series.ts";
import type { DayPoint, DigestView, ResolvedRange } from "../insights/types.ts";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { fetchChunked } from "./chunked-fetch.ts";
import type { DriversOutcome, DriversSettings } from "./drivers-service.ts";
import type { InsightsCache } from "./insights-cache.ts";

/**
 * The optional parts of a digest beyond its own query: the drivers (with the data gaps of every
 * slice) and the previous period day by day for the chart. Kept apart from the digest's path so a
 * digest that asks for neither costs nothing more.
 */

export interface ExtrasContext {
  source: Pick<InsightsCache, "fetch">;
  settings: DriversSettings;
  gapRule?: GapRule;
  logger?: Logger;
  ref: WorkspaceRef;
  apiKey: string;
  range: ResolvedRange;
  /** The digest's own query (asset groups expanded). */
  query: InsightsQuery & { assetIds: string[]; scannerIds: string[] };
}

/**
 * Adds the drivers to `view`. "required" lets a failure fail the digest (the Why? answer);
 * "optional" records why they are missing and lets the digest go out (scheduled digests).
 */
export async function addDrivers(
  view: DigestView,
  pending: Promise<DriversOutcome>,
  ctx: { mode: "required" | "optional"; logger?: Logger },
): Promise<void> {
  try {
    const drivers = await pending;
    view.drivers = drivers.view;
    view.previousSeries = drivers.previousSeries;
  } catch (err) {
    if (ctx.mode === "required") throw err;
    ctx.logger?.warn({ err }, "drivers failed; the digest goes out without them");
    view.driversUnavailable =
      err instanceof AppError && err.code === "drivers_unavailable"
        ? err.message
        : "The analytics service did not answer the breakdown in time.";
  }
}

/**
 * The previous period day by day, for the chart's second line; started beside the digest's own
 * query, so it costs no extra round trip. Never rejects: a failure only costs the chart that line.
 */
export function previousSeriesOf(ctx: ExtrasContext): Promise<DayPoint[] | undefined> {
  const { range } = ctx;
  const previousQuery = { ...ctx.query, fromDay: range.previousFrom, toDay: range.previousTo };
  return fetchChunked(ctx.source, ctx.ref, ctx.apiKey, previousQuery, ctx.settings.chunkSize)
    .then((previous) => repairSeries(previous, { from: range.previousFrom, to: range.previousTo }).points)
    .catch((err: unknown) => {
      ctx.logger?.warn({ err }, "previous-period series failed");
      return undefined;
    });
}
