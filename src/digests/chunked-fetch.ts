import type { DailyActivity, DailyMetric, InsightsQuery, InsightsResult } from "../analytics/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { InsightsCache } from "./insights-cache.ts";

/**
 * An asset filter longer than `chunkSize` ids is sent as several queries whose replies are summed.
 * The contract states no limit on `assetIdsFilter`, but a group of thousands of assets makes a
 * request body no gateway should be trusted with; and since the service sums over the selected
 * assets, disjoint chunks add up to the whole.
 */

/** The asset lists to query: `[[]]` (no asset filter) when there are none. */
export function assetChunks(assetIds: readonly string[], chunkSize: number): string[][] {
  const ids = [...new Set(assetIds)];
  if (ids.length === 0) return [[]];
  const size = Math.max(1, Math.floor(chunkSize));
  const out: string[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

function addByStamp<T extends { timeStamp: string }>(a: T[], b: readonly T[], add: (x: T, y: T) => T): T[] {
  const byStamp = new Map(b.map((e) => [e.timeStamp, e]));
  return a.map((e) => {
    const other = byStamp.get(e.timeStamp);
    return other ? add(e, other) : e;
  });
}

/** Two replies for disjoint asset sets, as one: every count summed, day by day. */
export function mergeResults(a: InsightsResult, b: InsightsResult): InsightsResult {
  const pair = (x: { current: number; previous: number }, y: { current: number; previous: number }) => ({
    current: x.current + y.current,
    previous: x.previous + y.previous,
  });
  return {
    dailyMetric: addByStamp<DailyMetric>(a.dailyMetric, b.dailyMetric, (x, y) => ({
      timeStamp: x.timeStamp,
      findings: x.findings + y.findings,
      violations: x.violations + y.violations,
    })),
    dailyActivity: addByStamp<DailyActivity>(a.dailyActivity, b.dailyActivity, (x, y) => ({
      timeStamp: x.timeStamp,
      fixedViolations: x.fixedViolations + y.fixedViolations,
      mergedViolations: x.mergedViolations + y.mergedViolations,
    })),
    summary: {
      findings: pair(a.summary.findings, b.summary.findings),
      violations: pair(a.summary.violations, b.summary.violations),
      fixes: a.summary.fixes + b.summary.fixes,
      mergedViolations: a.summary.mergedViolations + b.summary.mergedViolations,
    },
    ...(a.filters ? { filters: a.filters } : {}),
  };
}

/**
 * One insights question, answered in as many chunks as its asset filter needs (through the shared
 * cache, so each chunk is reused like any query), summed into one reply.
 */
export async function fetchChunked(
  source: Pick<InsightsCache, "fetch">,
  ref: WorkspaceRef,
  apiKey: string,
  query: InsightsQuery,
  chunkSize: number,
): Promise<InsightsResult> {
  const chunks = assetChunks(query.assetIds ?? [], chunkSize);
  const replies = await Promise.all(
    chunks.map((assetIds) => source.fetch(ref, apiKey, { ...query, assetIds })),
  );
  return replies.slice(1).reduce(mergeResults, replies[0] as InsightsResult);
}
