import type { FilterOption, InsightsResult } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { DEFAULT_GAP_RULE, type GapRule } from "../insights/gaps.ts";
import type { Periods } from "../insights/period-totals.ts";
import type { Logger } from "../log.ts";
import { digestToken } from "../store/keys.ts";
import type { DriversCache } from "./drivers-cache.ts";
import type { SlicesSource } from "./drivers-fetch.ts";
import { windowsFor } from "./drivers-plan.ts";
import type { BucketCompute, DriversPlanner } from "./drivers-planner.ts";
import {
  computeDriversMany,
  type DriversOutcome,
  type DriversRequest,
  type DriversSettings,
  driversRequestKey,
} from "./drivers-service.ts";
import { sameOptions } from "./shared-lists.ts";

/**
 * Where a digest's drivers come from, in order: this process's shared cache, a bucket its slot
 * planned (computed once for every digest of the bucket), Redis, another process computing them (waited
 * for), or a computation of its own. Every way gives the same numbers.
 */

export interface DriversEngineDeps {
  /**
   * Where the slices are asked (the analytics client, through its batcher); without it there are no
   * drivers. `expect` (the batcher's) holds a digest's question back for slices on their way.
   */
  slices?: SlicesSource & { expect?(apiKey: string): () => void };
  cache?: DriversCache;
  planner?: DriversPlanner;
  settings: DriversSettings;
  gapRule?: GapRule;
  logger?: Logger;
}

/** What a digest's drivers are asked for, before its reply (the asset and scanner lists) is in. */
export type DriversAsk = Omit<DriversRequest, "assets" | "scanners">;

/** The request's cache key, and the bucket it belongs to: same account, filters, last and as-of day, ranges. */
export function driversKeys(ask: DriversAsk, settings: DriversSettings, gapRule: GapRule = DEFAULT_GAP_RULE) {
  const request = driversRequestKey(ask, settings, gapRule);
  const ranges = windowsFor(ask.periods, gapRule.baselineDays).windows.length;
  const wide: Periods = { from: ask.periods.to, to: ask.periods.to, previousFrom: "", previousTo: "" };
  const bucket = digestToken(
    ask.apiKey,
    driversRequestKey({ ...ask, periods: wide }, settings, gapRule),
    String(ranges),
  );
  return { request, bucket };
}

/** The account's asset and scanner lists (null where the endpoint offers none), which the slices are cut by. */
export interface AccountLists {
  assets: FilterOption[] | null;
  scanners: FilterOption[] | null;
}

/** The lists of a digest's own reply. */
const listsOfReply = (reply: Promise<InsightsResult>) => () =>
  reply.then((r) => ({ assets: r.filters?.assetId ?? null, scanners: r.filters?.scannerId ?? null }));

/** Whether two lists (null: none offered) hold the same options; a list read again is often another object. */
const sameList = (a: readonly FilterOption[] | null, b: readonly FilterOption[] | null) =>
  a === null || b === null ? a === b : sameOptions(a, b);

/** Whether the lists the slices were cut by are the reply's. */
const sameLists = (a: AccountLists, b: AccountLists): boolean =>
  sameList(a.assets, b.assets) && sameList(a.scanners, b.scanners);

/**
 * Computes a bucket's drivers: every digest it holds once the lists are in, from one fetch. With
 * `early` (the account's lists as last seen) and the bucket planned ahead, the slices are cut by those at once, so they are asked
 * in the same turn as the digest's own question and ride with it in one request; the reply's lists
 * then decide: the same, and the drivers stand; changed (an asset added or renamed since), and they
 * are computed again from the reply's. Either way the drivers are those of the reply's lists.
 */
function bucketRun(
  deps: DriversEngineDeps,
  ask: DriversAsk,
  lists: () => Promise<AccountLists>,
  early?: AccountLists,
): BucketCompute {
  return async (take, planned) => {
    const computeBy = (cut: AccountLists, taken: ReturnType<typeof take>) => {
      const { assets, scanners } = cut;
      if (!assets || !scanners || !deps.slices)
        throw new AppError(
          "drivers_unavailable",
          "This analytics endpoint offers no asset or scanner filters to break the change down by.",
        );
      return computeDriversMany(
        { source: deps.slices, settings: deps.settings, gapRule: deps.gapRule },
        { ...ask, assets, scanners },
        taken.periods,
      ).then((outcomes) => new Map(taken.requests.map((r, i) => [r, outcomes[i] as DriversOutcome])));
    };
    // Early only where the bucket's digests are known (planned ahead, or computed alone): a bucket
    // nobody planned gathers the digests that ask while the reply is awaited, one fetch for them all.
    if (planned && early?.assets && early.scanners && deps.slices) {
      const taken = take();
      const guess = computeBy(early, taken);
      guess.catch(() => undefined);
      const actual = await lists();
      if (sameLists(actual, early)) return guess;
      return computeBy(actual, taken);
    }
    const actual = await lists();
    return computeBy(actual, take());
  };
}

/** How one ask's drivers are computed when no shared copy has them: through its bucket's computation. */
function computeOf(
  deps: DriversEngineDeps,
  ask: DriversAsk,
  keys: { request: string; bucket: string },
  lists: () => Promise<AccountLists>,
  early?: AccountLists,
): () => Promise<DriversOutcome> {
  const run = bucketRun(deps, ask, lists, early);
  return () =>
    deps.planner
      ? deps.planner.outcome(keys.bucket, { request: keys.request, periods: ask.periods }, run)
      : run(() => ({ periods: [ask.periods], requests: [keys.request] }), true).then(
          (m) => m.get(keys.request) as DriversOutcome,
        );
}

/** The drivers of one ask, by the first of the ways above that has them. */
function obtain(
  deps: DriversEngineDeps,
  ask: DriversAsk,
  keys: { request: string; bucket: string },
  lists: () => Promise<AccountLists>,
  early?: AccountLists,
): Promise<DriversOutcome> {
  const compute = computeOf(deps, ask, keys, lists, early);
  return deps.cache ? deps.cache.get(ask.apiKey, keys.request, compute) : compute();
}

/**
 * Starts a digest's drivers before its own reply is in: a shared result is found (or joined) while
 * the digest's query is in flight; a computation asks for the slices cut by `early` (the lists last
 * seen) at once, else waits for the reply's lists. The promise is awaited by the digest, or never
 * when the digest's own query fails (that failure is the digest's).
 */
export function startDrivers(
  deps: DriversEngineDeps,
  ask: DriversAsk,
  reply: Promise<InsightsResult>,
  early?: AccountLists,
): Promise<DriversOutcome> {
  const pending = obtain(
    deps,
    ask,
    driversKeys(ask, deps.settings, deps.gapRule),
    listsOfReply(reply),
    early,
  );
  pending.catch(() => undefined);
  return pending;
}

/**
 * The drivers between any two periods of a filtered selection (an alert's day against a usual
 * one), cut by `lists`: shared like a digest's.
 */
export function driversFor(
  deps: DriversEngineDeps,
  ask: DriversAsk,
  lists: Promise<AccountLists>,
): Promise<DriversOutcome> {
  return obtain(deps, ask, driversKeys(ask, deps.settings, deps.gapRule), () => lists);
}

/**
 * Plans the drivers of digests about to be built (a slot's, of one account) at once, and starts each
 * bucket's computation as the planner's warm-up queue allows, so the digests find them ready: `replyOf` gives a digest's own reply (through the
 * shared insights cache, so the digest built later asks nothing more for it), whose lists the bucket
 * needs. Resolves when every bucket is computed (failures are logged: each digest will try again).
 */
export async function warmDrivers(
  deps: DriversEngineDeps,
  asks: readonly DriversAsk[],
  replyOf: (ask: DriversAsk) => Promise<InsightsResult>,
  /** The account's lists as last seen: each bucket's slices ride with its first digest's question. */
  early?: AccountLists,
): Promise<void> {
  const byBucket = new Map<string, { ask: DriversAsk; request: string }[]>();
  for (const ask of asks) {
    const keys = driversKeys(ask, deps.settings, deps.gapRule);
    const list = byBucket.get(keys.bucket) ?? [];
    if (!list.some((x) => x.request === keys.request)) list.push({ ask, request: keys.request });
    byBucket.set(keys.bucket, list);
  }
  for (const [bucket, digests] of byBucket)
    deps.planner?.plan(
      bucket,
      digests.map((d) => ({ request: d.request, periods: d.ask.periods })),
    );
  const run = (task: () => Promise<void>) => (deps.planner ? deps.planner.queue(task) : task());
  await Promise.all(
    [...byBucket].map(([bucket, digests]) =>
      run(async () => {
        const first = digests[0]?.ask as DriversAsk;
        let lists: Promise<AccountLists> | undefined;
        const lazyLists = () => {
          lists ??= listsOfReply(replyOf(first))();
          return lists;
        };
        // With lists to cut the slices by, the first digest's question is asked now, beside the
        // computations' own reads, and the batcher holds either of the two that comes first for the
        // other (expect) until the reply is in (asked some other way: a cached reply, another
        // process's) or the warm-up ends: the two go out as one request.
        const release = early ? (deps.slices?.expect?.(first.apiKey) ?? (() => undefined)) : () => undefined;
        if (early) lazyLists().then(release, release);
        // Computed where nobody has them; one already shared is not read back (its delivery will).
        const settled = await Promise.allSettled(
          digests.map((d) => {
            const compute = computeOf(deps, d.ask, { request: d.request, bucket }, lazyLists, early);
            return deps.cache ? deps.cache.warm(d.ask.apiKey, d.request, compute) : compute();
          }),
        ).finally(release);
        const failed = settled.find((s) => s.status === "rejected");
        if (failed)
          deps.logger?.warn({ err: failed.reason }, "drivers warm-up failed; each digest will try again");
      }),
    ),
  );
}
