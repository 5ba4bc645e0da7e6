import type { InsightsQuery } from "../analytics/types.ts";
import { todayIn } from "../insights/dayjs.ts";
import { addDays } from "../insights/days.ts";
import { partialFrom } from "../insights/partial-day.ts";
import { repairSeries } from "../insights/series.ts";
import { baselineRange, type WeekdaySeries } from "../insights/unusual.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { fetchChunked } from "./chunked-fetch.ts";
import type { InsightsCache } from "./insights-cache.ts";

/**
 * The daily series an `unusual` condition judges: the latest complete day in the reader's zone (never
 * today, which is still being filled) and the eight weeks before it, with the digest's filters, in one
 * insights query (one per asset chunk) through the shared cache. Days the service leaves out stay
 * gaps (null), never zeros.
 */
export async function fetchWeekdaySeries(
  o: {
    source: Pick<InsightsCache, "fetch">;
    ref: WorkspaceRef;
    apiKey: string;
    chunkSize: number;
    /** The digest's own query: its filters are kept, its days replaced. */
    query: InsightsQuery;
  },
  now: Date,
  tz: string,
): Promise<WeekdaySeries> {
  const day = addDays(partialFrom(now, tz), -1);
  const { from, to } = baselineRange(day);
  const reply = await fetchChunked(
    o.source,
    o.ref,
    o.apiKey,
    { ...o.query, fromDay: from, toDay: to },
    o.chunkSize,
  );
  return { day, yesterday: addDays(todayIn(now, tz), -1), points: repairSeries(reply, { from, to }).points };
}
