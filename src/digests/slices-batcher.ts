import { AnalyticsError, retold } from "../analytics/analytics-errors.ts";
import { sliceAlias, sliceIndexOf } from "../analytics/input.ts";
import type { SliceQuery, SliceSeries } from "../analytics/types.ts";
import {
  addToLoad,
  emptyLoad,
  type FetchLimits,
  fitsLoad,
  type RequestLoad,
  type SlicesSource,
} from "./drivers-fetch.ts";

/**
 * Slices requests of one account asked in the same turn of the event loop go out as one request.
 *
 * Each drivers computation packs its own slices into few requests, but an account's digests with
 * different filters (a team channel per asset group or scanner) are different computations, and each
 * asked its handful of slices alone: a request of a few fields each. They start together (their
 * lists arrive with replies that were asked together), so what they ask in one turn is sent as one
 * request of aliased fields, within the same bounds on fields and asset ids as one computation's.
 *
 * A failure the service pins on fields (a GraphQL error naming aliases) is the business of the
 * askers those fields belong to; the others ask again on their own, so one digest's refused slice
 * never costs another its drivers. Any other failure (a timeout, a 5xx, a 429) is every asker's.
 */

/** Fields and asset ids per request: the bounds one computation's requests keep. */
export type BatchLimits = Pick<FetchLimits, "batchSize" | "maxIds">;

interface Asker {
  queries: readonly SliceQuery[];
  resolve: (series: SliceSeries[]) => void;
  reject: (err: unknown) => void;
}

interface Pending {
  askers: Asker[];
  sent: boolean;
  load: RequestLoad;
}

const listsOf = (queries: readonly SliceQuery[]) => queries.map((q) => q.assetIds);

/**
 * @param defer when a turn's askers are sent [setImmediate: after the I/O callbacks of this turn].
 */
export function batchSlices(
  source: SlicesSource,
  limits: BatchLimits,
  defer: (flush: () => void) => void = setImmediate,
): SlicesSource {
  const pending = new Map<string, Pending>();

  const send = async (apiKey: string, batch: Pending) => {
    const only = batch.askers[0];
    if (batch.askers.length === 1 && only) {
      source.slices(apiKey, only.queries).then(only.resolve, only.reject);
      return;
    }
    const all = batch.askers.flatMap((a) => a.queries);
    let replies: SliceSeries[];
    try {
      replies = await source.slices(apiKey, all);
    } catch (err) {
      const failed =
        err instanceof AnalyticsError ? (err.details.failedFields as string[] | undefined) : undefined;
      let start = 0;
      for (const a of batch.askers) {
        const own: string[] = [];
        for (const f of failed ?? []) {
          const i = sliceIndexOf(f);
          if (i !== undefined && i >= start && i < start + a.queries.length) own.push(sliceAlias(i - start));
        }
        start += a.queries.length;
        if (!failed || !(err instanceof AnalyticsError)) a.reject(err);
        else if (own.length > 0) a.reject(retold(err, { failedFields: own }));
        // Nothing of its own was refused: it asks again alone.
        else source.slices(apiKey, a.queries).then(a.resolve, a.reject);
      }
      return;
    }
    let start = 0;
    for (const a of batch.askers) {
      a.resolve(replies.slice(start, start + a.queries.length));
      start += a.queries.length;
    }
  };

  const flush = (apiKey: string, batch: Pending) => {
    if (batch.sent) return;
    batch.sent = true;
    if (pending.get(apiKey) === batch) pending.delete(apiKey);
    void send(apiKey, batch);
  };

  return {
    slices(apiKey, queries) {
      if (queries.length >= limits.batchSize) return source.slices(apiKey, queries);
      return new Promise<SliceSeries[]>((resolve, reject) => {
        let batch = pending.get(apiKey);
        if (batch && !fitsLoad(batch.load, listsOf(queries), limits)) {
          flush(apiKey, batch);
          batch = undefined;
        }
        if (!batch) {
          const fresh: Pending = { askers: [], sent: false, load: emptyLoad() };
          pending.set(apiKey, fresh);
          defer(() => flush(apiKey, fresh));
          batch = fresh;
        }
        addToLoad(batch.load, listsOf(queries));
        batch.askers.push({ queries, resolve, reject });
      });
    },
  };
}

const batchers = new WeakMap<SlicesSource, Map<string, SlicesSource>>();

/**
 * The one batcher of `source` for these limits. Every digest service over one analytics client
 * shares it: a delivery builds with a digest service of its own, and computations share a request
 * only when their slices go through the same batcher.
 */
export function sharedBatcher(source: SlicesSource, limits: BatchLimits): SlicesSource {
  let byLimits = batchers.get(source);
  if (!byLimits) {
    byLimits = new Map();
    batchers.set(source, byLimits);
  }
  const key = `${limits.batchSize}|${limits.maxIds}`;
  let batcher = byLimits.get(key);
  if (!batcher) {
    batcher = batchSlices(source, limits);
    byLimits.set(key, batcher);
  }
  return batcher;
}
