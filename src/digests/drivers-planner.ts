import type { Periods } from "../insights/period-totals.ts";
import type { DriversOutcome } from "./drivers-service.ts";

/**
 * Scheduled storms plan their drivers ahead. When a time slot fires, its fan-out knows which
 * digests are about to be built; those of one account that share their filters and their last day
 * (a "bucket": the same slices, each digest with its own range) get their drivers from one fetch of
 * the days they all need. The planner holds, in this process, which digests each bucket stands for
 * and the bucket's one computation, started by whichever comes first: the fan-out's warm-up or a
 * delivery of the bucket. A digest nobody planned computes its own drivers as before.
 */

/** One digest of a bucket: its drivers request key and its periods. */
export interface PlannedDigest {
  request: string;
  periods: Periods;
}

/** Each digest's drivers (or the bucket's failure), by request key. */
export type BucketRun = Promise<Map<string, DriversOutcome>>;

export interface DriversPlanner {
  /** Adds digests to their bucket (one not started yet; a started one is not changed, a new one begins). */
  plan(bucket: string, digests: readonly PlannedDigest[]): void;
  /**
   * The drivers of `request` from its bucket's computation, started here with `run` over every
   * digest of the bucket unless it is under way; undefined when no bucket plans that request. Each
   * digest's drivers are handed out once (callers go through the shared cache, which keeps them).
   */
  outcome(
    bucket: string,
    request: string,
    run: (periods: Periods[], requests: string[]) => BucketRun,
  ): Promise<DriversOutcome> | undefined;
  /** Runs a bucket's warm-up when fewer than the planner's limit run (deliveries never wait for this queue). */
  queue(task: () => Promise<void>): Promise<void>;
  /** Buckets held (for tests and metrics). */
  size(): number;
}

interface Bucket {
  digests: Map<string, Periods>;
  run: BucketRun | null;
  until: number;
}

/**
 * @param ttlMs how long a bucket is kept [120 s]: a slot's deliveries go out within it.
 * @param warmConcurrency bucket warm-ups running at once [4]; a delivery starts its bucket itself when it comes first.
 * @param now the clock (tests).
 */
export function createDriversPlanner(
  o: { ttlMs?: number; warmConcurrency?: number; now?: () => number } = {},
): DriversPlanner {
  const ttlMs = o.ttlMs ?? 120_000;
  const now = o.now ?? Date.now;
  const limit = Math.max(1, o.warmConcurrency ?? 4);
  let running = 0;
  const waiting: (() => void)[] = [];
  const buckets = new Map<string, Bucket[]>();
  const sweep = () => {
    const t = now();
    for (const [key, list] of buckets) {
      const live = list.filter((b) => b.until > t);
      if (live.length === 0) buckets.delete(key);
      else if (live.length !== list.length) buckets.set(key, live);
    }
  };
  return {
    plan(bucket, digests) {
      sweep();
      const list = buckets.get(bucket) ?? [];
      let open = list.find((b) => b.run === null);
      if (!open) {
        open = { digests: new Map(), run: null, until: now() + ttlMs };
        list.push(open);
        buckets.set(bucket, list);
      }
      for (const d of digests)
        if (!list.some((b) => b.run && b.digests.has(d.request))) open.digests.set(d.request, d.periods);
    },
    outcome(bucket, request, run) {
      const b = buckets.get(bucket)?.find((x) => x.digests.has(request) && x.until > now());
      if (!b) return undefined;
      b.run ??= run([...b.digests.values()], [...b.digests.keys()]);
      return b.run.then((outcomes) => {
        const mine = outcomes.get(request);
        if (!mine) throw new Error("a planned digest's drivers were taken already");
        // Taken once (the shared cache keeps it from here): a storm's buckets do not pile up here.
        outcomes.delete(request);
        b.digests.delete(request);
        if (b.digests.size === 0) {
          const list = buckets.get(bucket)?.filter((x) => x !== b) ?? [];
          if (list.length > 0) buckets.set(bucket, list);
          else buckets.delete(bucket);
        }
        return mine;
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
