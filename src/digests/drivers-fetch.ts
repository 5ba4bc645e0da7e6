import { AnalyticsError, retold } from "../analytics/analytics-errors.ts";
import { sliceIndexOf } from "../analytics/input.ts";
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

/**
 * What one request carries so far: its fields, and the asset-id lists among them (a list repeated in
 * several fields travels once, as one variable, so its ids count once).
 */
export interface RequestLoad {
  fields: number;
  lists: Set<string>;
  ids: number;
}

export const emptyLoad = (): RequestLoad => ({ fields: 0, lists: new Set(), ids: 0 });

const listKey = (ids: readonly string[] | undefined) => (ids ?? []).join(",");

/** The asset ids fields with these lists would add to `load`. */
function addedIds(load: RequestLoad, lists: readonly (readonly string[] | undefined)[]): number {
  const fresh = new Set<string>();
  let n = 0;
  for (const ids of lists) {
    const key = listKey(ids);
    if (load.lists.has(key) || fresh.has(key)) continue;
    fresh.add(key);
    n += ids?.length ?? 0;
  }
  return n;
}

/**
 * Whether fields with these asset-id lists (one per field) still fit a request holding `load`,
 * within `batchSize` fields and `maxIds` asset ids; an empty request takes anything.
 */
export function fitsLoad(
  load: RequestLoad,
  lists: readonly (readonly string[] | undefined)[],
  limits: Pick<FetchLimits, "batchSize" | "maxIds">,
): boolean {
  if (load.fields === 0) return true;
  return load.fields + lists.length <= limits.batchSize && load.ids + addedIds(load, lists) <= limits.maxIds;
}

/** Adds fields with these asset-id lists to `load`. */
export function addToLoad(load: RequestLoad, lists: readonly (readonly string[] | undefined)[]): void {
  load.ids += addedIds(load, lists);
  for (const ids of lists) load.lists.add(listKey(ids));
  load.fields += lists.length;
}

/** Packs parts into requests in order: at most `batchSize` fields and about `maxIds` asset ids each. */
export function packParts(
  parts: readonly SlicePart[],
  limits: Pick<FetchLimits, "batchSize" | "maxIds">,
): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let load = emptyLoad();
  parts.forEach((part, i) => {
    if (!fitsLoad(load, [part.assetIds], limits)) {
      batches.push(current);
      current = [];
      load = emptyLoad();
    }
    current.push(i);
    addToLoad(load, [part.assetIds]);
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
        const index = sliceIndexOf(f);
        const part = index === undefined ? undefined : parts[batch[index] as number];
        return part ? [part.label] : [];
      }),
    ),
  ];
  if (labels.length === 0) return err;
  return retold(err, {
    failedFields: fields,
    message: `${err.message} (slices: ${labels.join(", ")})`,
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
