import type { InsightsQuery, InsightsResult } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { assetIdsOfGroups, groupsGoneText, missingGroups } from "../insights/asset-groups.ts";
import { computeDigest } from "../insights/compute-digest.ts";
import type { GapRule } from "../insights/gaps.ts";
import { partialFrom } from "../insights/partial-day.ts";
import type { Periods } from "../insights/period-totals.ts";
import { parseRange } from "../insights/ranges.ts";
import {
  CHART_STYLES,
  type ChartStyle,
  type DigestView,
  type DriversView,
  type ResolvedRange,
} from "../insights/types.ts";
import type { Logger } from "../log.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { WorkspaceSettingsStore } from "../store/workspace-settings.ts";
import { fetchChunked } from "./chunked-fetch.ts";
import { addDrivers, type ExtrasContext, previousSeriesOf } from "./digest-extras.ts";
import type { DriversCache } from "./drivers-cache.ts";
import {
  type AccountLists,
  type DriversAsk,
  type DriversEngineDeps,
  driversFor,
  startDrivers,
  warmDrivers,
} from "./drivers-engine.ts";
import type { SlicesSource } from "./drivers-fetch.ts";
import type { FirstAsk } from "./drivers-plan.ts";
import type { DriversPlanner } from "./drivers-planner.ts";
import { batchLimits, DEFAULT_DRIVERS, type DriversSettings } from "./drivers-service.ts";
import type { FilterLists, FilterListsCache } from "./filter-lists.ts";
import { matchFilters } from "./filter-match.ts";
import type { InsightsCache } from "./insights-cache.ts";
import { sharedBatcher } from "./slices-batcher.ts";
import { fetchWeekdaySeries } from "./weekday-series.ts";

/** What a digest is asked for: a range in the grammar, a zone, and filters by name or by id. */
export interface DigestRequest {
  ref: WorkspaceRef;
  range: string;
  tz: string;
  now: Date;
  /** Names as typed (`payments / api`); resolved against the service's filter lists. */
  assetNames?: string[];
  scannerNames?: string[];
  /** Ids already chosen from a dropdown. */
  assetIds?: string[];
  scannerIds?: string[];
  /** Top-level asset groups (`payments`) to narrow to, as a drivers button asks; added to the asset filter. */
  assetGroups?: string[];
  shareable?: boolean;
  attribution?: string;
  /**
   * Break the change down (drivers) and judge each slice for data gaps: "required" fails the digest
   * when they cannot be had (the Why? answer), "optional" shows the digest without them and says so
   * (scheduled digests). Costs at most `DriversSettings.maxQueries` more queries, mostly cached.
   */
  drivers?: "required" | "optional";
  /**
   * How the drivers' slices are first asked [window: the fewest round trips; every surface asks it,
   * a slot's deliveries too, whose slices then ride with their question]; "periods" asks the fewest
   * days. See FirstAsk.
   */
  driversFirstAsk?: FirstAsk;
  /** Fetch the previous period day by day for the chart's faint line (free when drivers run). */
  previousSeries?: boolean;
  /**
   * How the trend and drivers are shown; absent = the workspace's setting, native by default. A
   * chart brings the previous period with it (fetched beside the digest's query); `off` fetches
   * nothing more (exports, unfurls).
   */
  chart?: ChartStyle;
  /** Offer the Why? button; default: on-demand (shareable) digests without drivers do. */
  explainable?: boolean;
  /** Fetch the daily series an `unusual` condition judges (the latest complete day and 8 weeks before it). */
  weekday?: boolean;
}

/** The drivers between any two periods of a filtered selection (an alert's day against a usual one). */
export interface DriversRequest {
  ref: WorkspaceRef;
  tz: string;
  now: Date;
  assetIds: string[];
  scannerIds: string[];
  periods: Periods;
}

export interface DigestOutcome {
  view: DigestView;
  range: ResolvedRange;
  query: InsightsQuery;
  result: InsightsResult;
}

export interface DigestService {
  build(req: DigestRequest): Promise<DigestOutcome>;
  /** The workspace's API key, or a `not_connected` error. */
  apiKey(ref: WorkspaceRef): Promise<string>;
  /**
   * The asset and scanner lists, from the unfiltered insights reply of the last 7 days in `tz`
   * (cached like any digest's). With `kept`, lists a digest left behind answer first: no query and
   * no digest, for type-ahead that must answer within Slack's limit. With `kept: "only"`, no query
   * at all: no lists kept means no lists (work that must not wait for the service).
   */
  filterLists(
    ref: WorkspaceRef,
    tz: string,
    now: Date,
    opts?: { kept?: boolean | "only" },
  ): Promise<FilterLists>;
  /**
   * The drivers of the change between `periods` (by asset group and scanner, with the data gaps of
   * every slice), through the same bounded, cached slice queries as a digest's Why?.
   *
   * @throws AppError `drivers_unavailable` when the endpoint offers no filters to break it down by.
   */
  drivers(req: DriversRequest): Promise<DriversView>;
  /**
   * Plans and computes ahead the drivers of scheduled digests about to be built in one workspace
   * (a slot's members): digests of one account that share their filters and last day get them from
   * one fetch. Each is then built as usual and finds its drivers ready (or being computed). Resolves
   * when done; failures are logged, never thrown (each digest tries again).
   */
  warmDrivers(ref: WorkspaceRef, digests: readonly ScheduledDigest[]): Promise<void>;
}

/** A scheduled digest as a delivery builds it: its range, zone, fire time and filters by id. */
export interface ScheduledDigest {
  range: string;
  tz: string;
  now: Date;
  assetIds: string[];
  scannerIds: string[];
}

/**
 * The one path from a request to a digest view, shared by slash commands, dropdowns, scheduled
 * deliveries and the CLI preview, so every surface shows the same numbers.
 */
export function createDigestService(options: {
  apiKeys: Pick<ApiKeyStore, "load">;
  insights: InsightsCache;
  /** Where the drivers' slices are asked (the analytics client); without it no digest has drivers. */
  slices?: SlicesSource;
  /** Where computed drivers are shared across digests and processes; without it each digest computes its own. */
  driversCache?: DriversCache;
  /** Where a slot's planned drivers are held (see warmDrivers); without it none are planned. */
  driversPlanner?: DriversPlanner;
  platformUrl?: string;
  drivers?: DriversSettings;
  gapRule?: GapRule;
  /** Where optional parts that failed (drivers, the previous-period line) are reported. */
  logger?: Logger;
  /** Where the filter lists are kept for type-ahead; without it they are read from each reply. */
  filterLists?: FilterListsCache;
  /** The deployment allows charts (CHARTS, default on); off makes every digest text-only. */
  charts?: boolean;
  /** The workspaces' own chart setting; without it every digest is native unless asked otherwise. */
  settings?: Pick<WorkspaceSettingsStore, "get">;
}): DigestService {
  const settings = options.drivers ?? DEFAULT_DRIVERS;
  const apiKey = async (ref: WorkspaceRef) => {
    const stored = await options.apiKeys.load(ref);
    if (!stored) {
      throw new AppError(
        "not_connected",
        "This workspace has no platform API key yet. An admin can run /insights connect.",
      );
    }
    return stored.apiKey;
  };

  /** The request's chart style, else the workspace's, else native; always off when charts are. */
  const styleOf = async (req: DigestRequest): Promise<ChartStyle> => {
    if (options.charts === false) return "off";
    if (req.chart) return req.chart;
    const chosen = (await options.settings?.get(req.ref))?.chart as ChartStyle | undefined;
    return chosen && CHART_STYLES.includes(chosen) ? chosen : "native";
  };
  const engine: DriversEngineDeps = {
    // An account's computations asking in the same turn share requests: through the client's one
    // batcher, whichever digest service (each delivery has its own) they run in.
    slices: options.slices ? sharedBatcher(options.slices, batchLimits(settings)) : undefined,
    cache: options.driversCache,
    planner: options.driversPlanner,
    settings,
    gapRule: options.gapRule,
    logger: options.logger,
  };
  const askOf = (
    key: string,
    range: ResolvedRange,
    query: ExtrasContext["query"],
    partial: string | null,
    firstAsk?: FirstAsk,
  ) => ({
    apiKey: key,
    periods: range,
    assetIds: query.assetIds,
    scannerIds: query.scannerIds,
    partialFrom: partial,
    ...(firstAsk ? { firstAsk } : {}),
  });

  const listsOf = (r: InsightsResult): FilterLists => ({
    assets: r.filters?.assetId ?? null,
    scanners: r.filters?.scannerId ?? null,
  });

  /** The account's lists as a reply last brought them to this process, however long ago. */
  const listsHere = (key: string): AccountLists | undefined => {
    const held = options.insights.lists?.(key);
    return held ? { assets: held.assetId, scanners: held.scannerId } : undefined;
  };
  /**
   * The account's lists as last seen (by this process, else as stored for the workspace), which a
   * slot's drivers' slices are cut by before the reply is in, so they ride with the digest's own
   * question. A guess: the reply's lists decide (drivers-engine.ts). Redis is read only when this
   * process holds none, once per warm-up, and a failed read is no guess.
   */
  const earlyLists = async (ref: WorkspaceRef, key: string): Promise<AccountLists | undefined> =>
    listsHere(key) ?? (await options.filterLists?.held(ref).catch(() => null)) ?? undefined;

  const filterLists: DigestService["filterLists"] = async (ref, tz, now, opts = {}) => {
    const kept = opts.kept ? await options.filterLists?.get(ref) : undefined;
    if (kept) return kept;
    if (opts.kept === "only") return { assets: null, scanners: null };
    const range = parseRange("last7d", { now, tz });
    const key = await apiKey(ref);
    const base: InsightsQuery = { fromDay: range.from, toDay: range.to, assetIds: [], scannerIds: [] };
    const lists = listsOf(await options.insights.fetch(ref, key, base));
    await options.filterLists?.offer(ref, lists);
    return lists;
  };

  return {
    apiKey,
    filterLists,
    async drivers(req) {
      const key = await apiKey(req.ref);
      const ask = {
        apiKey: key,
        periods: req.periods,
        assetIds: req.assetIds,
        scannerIds: req.scannerIds,
        partialFrom: partialFrom(req.now, req.tz),
      };
      // The lists a digest left behind (or the unfiltered reply), like the digest's own.
      const lists = filterLists(req.ref, req.tz, req.now, { kept: true });
      return (await driversFor(engine, ask, lists)).view;
    },
    async warmDrivers(ref, digests) {
      if (!options.slices || digests.length === 0) return;
      const key = await apiKey(ref).catch(() => null);
      if (key === null) return;
      // The request each delivery will make (buildView): its range at the fire time, its ids.
      const asks = new Map<DriversAsk, InsightsQuery>();
      for (const d of digests) {
        const range = parseRange(d.range, { now: d.now, tz: d.tz });
        const query = {
          fromDay: range.from,
          toDay: range.to,
          assetIds: [...new Set(d.assetIds)],
          scannerIds: [...new Set(d.scannerIds)],
        };
        asks.set(askOf(key, range, query, partialFrom(d.now, d.tz), "window"), query);
      }
      const early = await earlyLists(ref, key);
      await warmDrivers(
        engine,
        [...asks.keys()],
        (ask) => fetchChunked(options.insights, ref, key, asks.get(ask) as InsightsQuery, settings.chunkSize),
        early,
      );
    },
    async build(req) {
      const range = parseRange(req.range, { now: req.now, tz: req.tz });
      const [key, chartStyle] = await Promise.all([apiKey(req.ref), styleOf(req)]);
      const base: InsightsQuery = { fromDay: range.from, toDay: range.to, assetIds: [], scannerIds: [] };
      let assetIds = [...new Set(req.assetIds ?? [])];
      let scannerIds = [...new Set(req.scannerIds ?? [])];
      const groups = [...new Set(req.assetGroups ?? [])];
      const typed = (req.assetNames?.length ?? 0) + (req.scannerNames?.length ?? 0);
      let queryAssetIds = assetIds;
      if (typed > 0 || groups.length > 0) {
        // Names and groups need the service's lists; the unfiltered reply carries them and is cached for the next step.
        const unfiltered = await options.insights.fetch(req.ref, key, base);
        if (!unfiltered.filters) {
          throw new AppError(
            "filters_unavailable",
            "This analytics endpoint does not offer asset or scanner filters.",
          );
        }
        assetIds = [
          ...new Set([
            ...assetIds,
            ...matchFilters("asset", req.assetNames ?? [], unfiltered.filters.assetId),
          ]),
        ];
        scannerIds = [
          ...new Set([
            ...scannerIds,
            ...matchFilters("scanner", req.scannerNames ?? [], unfiltered.filters.scannerId),
          ]),
        ];
        // Each group named must still be there: one gone is said, never left out of the numbers.
        const gone = missingGroups(unfiltered.filters.assetId, groups);
        if (gone.length > 0)
          throw new AppError("group_gone", groupsGoneText(gone), { details: { groups: gone } });
        const grouped = assetIdsOfGroups(unfiltered.filters.assetId, groups);
        queryAssetIds = [...new Set([...assetIds, ...grouped])];
      }
      const query = { ...base, assetIds: queryAssetIds, scannerIds };
      const extras: ExtrasContext = {
        source: options.insights,
        settings,
        gapRule: options.gapRule,
        logger: options.logger,
        ref: req.ref,
        apiKey: key,
        range,
        query,
      };
      // A delivery that comes before its slot's warm-up took its bucket uses them too; only this
      // process's (the warm-up read the stored ones): no Redis read on a digest's path for a guess.
      const early = req.drivers ? listsHere(key) : undefined;
      const reply = fetchChunked(options.insights, req.ref, key, query, settings.chunkSize);
      const partial = partialFrom(req.now, req.tz);
      // Drivers start now: a shared result is found (or joined) while the digest's own query runs.
      const drivers = req.drivers
        ? startDrivers(engine, askOf(key, range, query, partial, req.driversFirstAsk), reply, early)
        : undefined;
      // Drivers bring the previous period with them; a chart without drivers asks for it alongside.
      const previous =
        !req.drivers && (req.previousSeries || chartStyle !== "off") ? previousSeriesOf(extras) : undefined;
      const weekday = req.weekday
        ? fetchWeekdaySeries({ ...extras, chunkSize: settings.chunkSize }, req.now, req.tz)
        : undefined;
      const [result, weekdaySeries] = await Promise.all([reply, weekday]);
      // Type-ahead reads the lists from here later, off the path Slack waits on.
      if (result.filters) await options.filterLists?.offer(req.ref, listsOf(result));
      const digest = computeDigest(result, range, { partialFrom: partial, gapRule: options.gapRule });
      const view: DigestView = {
        digest,
        filters: {
          assets: result.filters?.assetId ?? null,
          scanners: result.filters?.scannerId ?? null,
          selectedAssetIds: assetIds,
          selectedScannerIds: scannerIds,
          ...(groups.length > 0 ? { selectedGroups: groups } : {}),
        },
        generatedAt: req.now.toISOString(),
        platformUrl: options.platformUrl,
        shareable: req.shareable ?? false,
        attribution: req.attribution,
        // Every on-demand digest (the shareable, ephemeral kind) offers Why? unless it already answers it.
        explainable: (req.explainable ?? req.shareable ?? false) && !req.drivers,
        chartStyle,
        ...(weekdaySeries ? { weekday: weekdaySeries } : {}),
      };
      if (req.drivers && drivers)
        await addDrivers(view, drivers, { mode: req.drivers, logger: options.logger });
      else if (previous) {
        const points = await previous;
        if (points) view.previousSeries = points;
      }
      return { view, range, query, result };
    },
  };
}
