import { AnalyticsError } from "../analytics/analytics-errors.ts";
import type { SliceQuery, SliceSeries } from "../analytics/types.ts";
import { repairSeries } from "../insights/series.ts";
import type { DayPoint } from "../insights/types.ts";
import type { Window } from "./drivers-plan.ts";

/**
 * The drivers' slices on the wire: many small questions (a slice, a range, a chunk of assets) packed
 * into few requests of aliased `insights` fields, a bounded number in flight, and none started once
 * one has failed: a service in trouble gets no more load from a breakdown that cannot complete.
 */

/** What fetches a batch of slices (the analytics client's `slices`). */
export interface SlicesSource {
  slices(apiKey: string, queries: readonly SliceQuery[]): Promise<SliceSeries[]>;
}

/** One question: the daily series of a selection over one range, for the part `label` names. */
export interface SlicePart {
  label: string;
  window: Window;
  assetIds: string[];
  scannerIds: string[];
}

export interface FetchLimits {
  /** Aliased fields per request. */
  batchSize: number;
  /** Asset ids one request may carry in its variables (each distinct list counted once). */
  maxIds: number;
  /** Requests in flight at once. */
  concurrency: number;
}

/** Packs parts into requests in order: at most `batchSize` fields and about `maxIds` asset ids each. */
export function packParts(
  parts: readonly SlicePart[],
  limits: Pick<FetchLimits, "batchSize" | "maxIds">,
): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let lists = new Set<string>();
  let ids = 0;
  parts.forEach((part, i) => {
    const key = part.assetIds.join(",");
    const extra = lists.has(key) ? 0 : part.assetIds.length;
    if (current.length > 0 && (current.length >= limits.batchSize || ids + extra > limits.maxIds)) {
      batches.push(current);
      current = [];
      lists = new Set();
      ids = 0;
    }
    current.push(i);
    if (!lists.has(key)) {
      lists.add(key);
      ids += part.assetIds.length;
    }
  });
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Runs `tasks` with at most `limit` in flight. The first failure rejects the whole and starts no
 * further task (those in flight finish, their results unused).
 */
export async function boundedStopOnFailure<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out = new Array<T>(tasks.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < tasks.length) {
      const i = next++;
      try {
        out[i] = await (tasks[i] as () => Promise<T>)();
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, lane));
  return out;
}

/** A batch failure, said in terms of the slices it was about (a refused field names its part). */
function mapFailure(err: unknown, parts: readonly SlicePart[], batch: readonly number[]): unknown {
  if (!(err instanceof AnalyticsError)) return err;
  const fields = (err.details.failedFields as string[] | undefined) ?? [];
  const labels = [
    ...new Set(
      fields.flatMap((f) => {
        const index = /^s(\d+)$/.exec(f)?.[1];
        const part = index === undefined ? undefined : parts[batch[Number(index)] as number];
        return part ? [part.label] : [];
      }),
    ),
  ];
  if (labels.length === 0) return err;
  return new AnalyticsError(err.code, `${err.message} (slices: ${labels.join(", ")})`, {
    cause: err,
    status: err.status,
    retryAfterMs: err.retryAfterMs,
    graphqlMessages: [...err.graphqlMessages],
    endpoint: err.details.endpoint as string | undefined,
    failedFields: fields,
    slices: labels,
  });
}

/**
 * Every part's daily points, in the order given: one point per day of its window, repaired where
 * the reply left days out or out of order (missing days are null, never zero).
 */
export async function fetchParts(
  source: SlicesSource,
  apiKey: string,
  parts: readonly SlicePart[],
  limits: FetchLimits,
): Promise<DayPoint[][]> {
  const batches = packParts(parts, limits);
  const out = new Array<DayPoint[]>(parts.length);
  await boundedStopOnFailure(
    batches.map((batch) => async () => {
      const queries = batch.map((i) => {
        const p = parts[i] as SlicePart;
        return { ...p.window, assetIds: p.assetIds, scannerIds: p.scannerIds };
      });
      const replies = await source.slices(apiKey, queries).catch((err: unknown) => {
        throw mapFailure(err, parts, batch);
      });
      batch.forEach((i, k) => {
        const w = (parts[i] as SlicePart).window;
        out[i] = repairSeries(replies[k] as SliceSeries, { from: w.fromDay, to: w.toDay }).points;
      });
    }),
    limits.concurrency,
  );
  return out;
}
