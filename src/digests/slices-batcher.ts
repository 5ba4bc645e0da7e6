import { AnalyticsError, retold } from "../analytics/analytics-errors.ts";
import { DIGEST_ALIAS } from "../analytics/documents.ts";
import { sliceAlias, sliceIndexOf } from "../analytics/input.ts";
import type { InsightsQuery, InsightsResult, SliceQuery, SliceSeries } from "../analytics/types.ts";
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
 * A digest's own question (`insights`) rides too, when the source can carry it: a digest whose
 * drivers are cut by lists already held asks its own question and its slices in the same turn, and
 * both go as one request. One digest question per request; another asked meanwhile goes alone.
 *
 * A failure the service pins on fields (a GraphQL error naming aliases) is the business of the
 * askers those fields belong to; the others ask again on their own, so one digest's refused slice
 * never costs another its drivers. Any other failure (a timeout, a 5xx, a 429) is every asker's.
 */

/** What the batcher sends through: the client's slices, and its digest question alone or with slices. */
export interface BatchSource extends SlicesSource {
  insights?(apiKey: string, q: InsightsQuery, opts?: { lists?: boolean }): Promise<InsightsResult>;
  insightsWithSlices?(
    apiKey: string,
    q: InsightsQuery,
    opts: { lists?: boolean } | undefined,
    queries: readonly SliceQuery[],
  ): Promise<{ insights: InsightsResult; slices: SliceSeries[] }>;
}

/** The batcher: slices, and a digest's own question that may ride with them. */
export interface SlicesBatcher extends SlicesSource {
  insights(apiKey: string, q: InsightsQuery, opts?: { lists?: boolean }): Promise<InsightsResult>;
  /**
   * A digest's question and slices of the account are on their way (a warm-up that cuts them by lists
   * it holds): until the returned function is called, a batch of the account that holds only one of
   * the two waits for the other instead of going alone. Each is asked after reads of its own (on a
   * Redis Cluster, of different nodes), so which reaches the batcher first is not known.
   */
  expect(apiKey: string): () => void;
}

/** Fields and asset ids per request: the bounds one computation's requests keep. */
export type BatchLimits = Pick<FetchLimits, "batchSize" | "maxIds">;

interface Asker {
  queries: readonly SliceQuery[];
  resolve: (series: SliceSeries[]) => void;
  reject: (err: unknown) => void;
}

interface DigestAsker {
  query: InsightsQuery;
  opts?: { lists?: boolean };
  resolve: (result: InsightsResult) => void;
  reject: (err: unknown) => void;
}

interface Pending {
  askers: Asker[];
  digest?: DigestAsker;
  sent: boolean;
  /** Its turn came with only a question or only slices while both were expected: sent when the other comes. */
  waiting: boolean;
  load: RequestLoad;
}

const listsOf = (queries: readonly SliceQuery[]) => queries.map((q) => q.assetIds);

/**
 * @param defer when a turn's askers are sent [setImmediate: after the I/O callbacks of this turn].
 */
export function batchSlices(
  source: BatchSource,
  limits: BatchLimits,
  defer: (flush: () => void) => void = setImmediate,
): SlicesBatcher {
  const pending = new Map<string, Pending>();
  const expected = new Map<string, number>();
  const alone = (apiKey: string, d: DigestAsker) => {
    if (!source.insights) return d.reject(new Error("this slices source asks no digest questions"));
    source.insights(apiKey, d.query, d.opts).then(d.resolve, d.reject);
  };

  const send = async (apiKey: string, batch: Pending) => {
    const only = batch.askers[0];
    // The digest's question rides when there are slices to ride with and the source can carry both.
    const riding = only && source.insightsWithSlices ? batch.digest : undefined;
    if (batch.digest && !riding) alone(apiKey, batch.digest);
    if (!only) return;
    if (batch.askers.length === 1 && !riding) {
      source.slices(apiKey, only.queries).then(only.resolve, only.reject);
      return;
    }
    const all = batch.askers.flatMap((a) => a.queries);
    let replies: SliceSeries[];
    try {
      if (riding && source.insightsWithSlices) {
        const both = await source.insightsWithSlices(apiKey, riding.query, riding.opts, all);
        riding.resolve(both.insights);
        replies = both.slices;
      } else replies = await source.slices(apiKey, all);
    } catch (err) {
      const failed =
        err instanceof AnalyticsError ? (err.details.failedFields as string[] | undefined) : undefined;
      if (riding) {
        // The digest's own field refused, or the whole request failed: the digest's failure; its
        // question is asked again alone when only slices were refused.
        if (!failed || failed.includes(DIGEST_ALIAS)) riding.reject(err);
        else alone(apiKey, riding);
      }
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

  /** Sends the batch; while a question and slices are expected, one without the other waits unless `now`. */
  const flush = (apiKey: string, batch: Pending, now = false) => {
    if (batch.sent) return;
    const half = !batch.digest || batch.askers.length === 0;
    if (!now && half && (expected.get(apiKey) ?? 0) > 0) {
      batch.waiting = true;
      return;
    }
    batch.sent = true;
    if (pending.get(apiKey) === batch) pending.delete(apiKey);
    void send(apiKey, batch);
  };

  /** A waiting batch that something joined: its turn comes again (it waits on if still half). */
  const rejoined = (apiKey: string, batch: Pending) => {
    batch.waiting = false;
    defer(() => flush(apiKey, batch));
  };

  const opened = (apiKey: string): Pending => {
    const fresh: Pending = { askers: [], sent: false, waiting: false, load: emptyLoad() };
    pending.set(apiKey, fresh);
    defer(() => flush(apiKey, fresh));
    return fresh;
  };

  return {
    insights(apiKey, query, opts) {
      return new Promise<InsightsResult>((resolve, reject) => {
        const asker = { query, opts, resolve, reject };
        const open = pending.get(apiKey);
        const lists = [query.assetIds ?? []];
        if (open && (open.digest || !fitsLoad(open.load, lists, limits))) return alone(apiKey, asker);
        const batch = open ?? opened(apiKey);
        addToLoad(batch.load, lists);
        batch.digest = asker;
        if (batch.waiting) rejoined(apiKey, batch);
      });
    },
    expect(apiKey) {
      expected.set(apiKey, (expected.get(apiKey) ?? 0) + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const left = (expected.get(apiKey) ?? 1) - 1;
        if (left > 0) {
          expected.set(apiKey, left);
          return;
        }
        expected.delete(apiKey);
        const batch = pending.get(apiKey);
        if (batch?.waiting) flush(apiKey, batch);
      };
    },
    slices(apiKey, queries) {
      if (queries.length >= limits.batchSize) return source.slices(apiKey, queries);
      return new Promise<SliceSeries[]>((resolve, reject) => {
        let batch = pending.get(apiKey);
        if (batch && !fitsLoad(batch.load, listsOf(queries), limits)) {
          flush(apiKey, batch, true);
          batch = undefined;
        }
        batch ??= opened(apiKey);
        addToLoad(batch.load, listsOf(queries));
        batch.askers.push({ queries, resolve, reject });
        if (batch.waiting) rejoined(apiKey, batch);
      });
    },
  };
}

const batchers = new WeakMap<BatchSource, Map<string, SlicesBatcher>>();

/**
 * The one batcher of `source` for these limits. Every digest service over one analytics client
 * shares it: a delivery builds with a digest service of its own, and computations share a request
 * only when their slices go through the same batcher.
 */
export function sharedBatcher(source: BatchSource, limits: BatchLimits): SlicesBatcher {
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
