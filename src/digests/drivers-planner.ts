import type { Periods } from "../insights/period-totals.ts";
import type { DriversOutcome } from "./drivers-service.ts";

/**
 * Digests of one account that share their filters and their last day (a "bucket": the same slices,
 * each digest with its own range) get their drivers from one fetch of the days they all need. The
 * planner holds, in this process, which digests each bucket stands for and the bucket's one
 * computation.
 *
 * Digests reach a bucket two ways. A scheduled slot's fan-out plans them ahead (its warm-up knows
 * which digests it is about to build). Any other digest joins the bucket that is still gathering:
 * a computation cannot start before the account's lists are in (the first digest's own reply), so
 * the digests that ask meanwhile (many people at once, or a storm nobody planned) join it at no
 * cost in time. The bucket closes when its computation takes its digests; later ones start the next.
 */

/** One digest of a bucket: its drivers request key and its periods. */
export interface PlannedDigest {
  request: string;
  periods: Periods;
}

/** The digests a bucket stands for when its computation takes them (the bucket closes then). */
export interface BucketDigests {
  periods: Periods[];
  requests: string[];
}

/** Each digest's drivers (or the bucket's failure), by request key. */
export type BucketRun = Promise<Map<string, DriversOutcome>>;

/**
 * A bucket's computation: it may wait (for the account's lists), then calls `take` once, at the
 * moment it fixes which digests it computes. `planned`: the bucket's digests were planned ahead (a
 * slot's warm-up), so taking them at once leaves none out.
 */
export type BucketCompute = (take: () => BucketDigests, planned: boolean) => BucketRun;

export interface DriversPlanner {
  /** Adds digests to their bucket (one still gathering; a closed one is not changed, a new one begins). */
  plan(bucket: string, digests: readonly PlannedDigest[]): void;
  /**
   * The drivers of `request` from its bucket's computation: the bucket that planned it, else the
   * one gathering (joined), else a new one; the computation is started here with `run` unless it is
   * under way. Each caller gets the digest's drivers once (callers go through the shared cache,
   * which keeps them).
   */
  outcome(bucket: string, digest: PlannedDigest, run: BucketCompute): Promise<DriversOutcome>;
  /** Runs a bucket's warm-up when fewer than the planner's limit run (deliveries never wait for this queue). */
  queue(task: () => Promise<void>): Promise<void>;
  /** Buckets held (for tests and metrics). */
  size(): number;
}

interface Bucket {
  /** Each digest's periods and how many callers still wait for its drivers. */
  digests: Map<string, { periods: Periods; waiting: number }>;
  run: BucketRun | null;
  /** Its computation took its digests (or ended): nobody joins it any more. */
  closed: boolean;
  /** Digests were planned into it ahead (plan). */
  planned: boolean;
  until: number;
}

/**
 * @param ttlMs how long a bucket is kept [120 s]: a slot's deliveries go out within it.
 * @param warmConcurrency bucket warm-ups running at once [16]; a delivery starts its bucket itself when it
 *   comes first. The slot's fan-out deals each workspace's deliveries in runs, in about the order the
 *   warm-ups are queued, so the warm-ups must run ahead of the deliveries in flight: too few and each run
 *   waits on its own computation, too many and they take the machine from the first deliveries
 *   (docs/notes/storms.md, "A slot's fan-out deals each workspace a run of ten", has the widths tried).
 * @param now the clock (tests).
 */
export function createDriversPlanner(
  o: { ttlMs?: number; warmConcurrency?: number; now?: () => number } = {},
): DriversPlanner {
  const ttlMs = o.ttlMs ?? 120_000;
  const now = o.now ?? Date.now;
  const limit = Math.max(1, o.warmConcurrency ?? 16);
  let running = 0;
  const waiting: (() => void)[] = [];
  const buckets = new Map<string, Bucket[]>();
  // Every call sweeps, and a storm makes thousands of calls over hundreds of buckets: the sweep walks
  // them only once the earliest deadline has passed (a walk that finds nothing due allocates nothing).
  let nextDue = Number.POSITIVE_INFINITY;
  const sweep = () => {
    const t = now();
    if (t < nextDue) return;
    nextDue = Number.POSITIVE_INFINITY;
    for (const [key, list] of buckets) {
      const live = list.some((b) => b.until <= t) ? list.filter((b) => b.until > t) : list;
      if (live.length === 0) buckets.delete(key);
      else if (live !== list) buckets.set(key, live);
      for (const b of live) nextDue = Math.min(nextDue, b.until);
    }
  };
  /** The bucket still gathering digests, or a new one (callers sweep first: no bucket here has expired). */
  const gathering = (key: string): Bucket => {
    const list = buckets.get(key) ?? [];
    let open = list.find((b) => !b.closed);
    if (!open) {
      open = { digests: new Map(), run: null, closed: false, planned: false, until: now() + ttlMs };
      nextDue = Math.min(nextDue, open.until);
      list.push(open);
      buckets.set(key, list);
    }
    return open;
  };
  const forget = (key: string, b: Bucket) => {
    const list = buckets.get(key)?.filter((x) => x !== b) ?? [];
    if (list.length > 0) buckets.set(key, list);
    else buckets.delete(key);
  };
  return {
    plan(bucket, digests) {
      sweep();
      const list = buckets.get(bucket) ?? [];
      const fresh = digests.filter((d) => !list.some((b) => b.digests.has(d.request)));
      if (fresh.length === 0) return;
      const open = gathering(bucket);
      open.planned = true;
      for (const d of fresh) open.digests.set(d.request, { periods: d.periods, waiting: 0 });
    },
    outcome(bucket, digest, run) {
      sweep();
      const b = buckets.get(bucket)?.find((x) => x.digests.has(digest.request)) ?? gathering(bucket);
      const mine = b.digests.get(digest.request) ?? { periods: digest.periods, waiting: 0 };
      mine.waiting++;
      b.digests.set(digest.request, mine);
      if (!b.run) {
        const take = (): BucketDigests => {
          b.closed = true;
          return { periods: [...b.digests.values()].map((d) => d.periods), requests: [...b.digests.keys()] };
        };
        b.run = run(take, b.planned);
        b.run.then(
          () => undefined,
          () => {
            // A failure is not kept here (the shared cache keeps a coded one briefly): the next asker starts afresh.
            b.closed = true;
            forget(bucket, b);
          },
        );
      }
      return b.run
        .then((outcomes) => {
          const result = outcomes.get(digest.request);
          if (!result) throw new Error("a digest joined a bucket after its computation took its digests");
          return result;
        })
        .finally(() => {
          // Handed out to every caller that waited for it, then let go: a storm's buckets do not pile up here.
          if (--mine.waiting > 0) return;
          b.digests.delete(digest.request);
          if (b.digests.size === 0 && b.closed) forget(bucket, b);
        });
    },
    async queue(task) {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        await task();
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
    size: () => {
      sweep();
      return [...buckets.values()].reduce((n, l) => n + l.length, 0);
    },
  };
}
