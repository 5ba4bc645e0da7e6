import type { InsightsQuery, InsightsResult } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { computeDigest } from "../insights/compute-digest.ts";
import { parseRange } from "../insights/ranges.ts";
import type { DigestView, ResolvedRange } from "../insights/types.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { FilterLists, FilterListsCache } from "./filter-lists.ts";
import { matchFilters } from "./filter-match.ts";
import type { InsightsCache } from "./insights-cache.ts";

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
  shareable?: boolean;
  attribution?: string;
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
   * no digest, for type-ahead that must answer within Slack's limit.
   */
  filterLists(ref: WorkspaceRef, tz: string, now: Date, opts?: { kept?: boolean }): Promise<FilterLists>;
}

/**
 * The one path from a request to a digest view, shared by slash commands, dropdowns, scheduled
 * deliveries and the CLI preview, so every surface shows the same numbers.
 */
export function createDigestService(options: {
  apiKeys: Pick<ApiKeyStore, "load">;
  insights: InsightsCache;
  platformUrl?: string;
  /** Where the filter lists are kept for type-ahead; without it they are read from each reply. */
  filterLists?: FilterListsCache;
}): DigestService {
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

  const listsOf = (r: InsightsResult): FilterLists => ({
    assets: r.filters?.assetId ?? null,
    scanners: r.filters?.scannerId ?? null,
  });

  return {
    apiKey,
    async filterLists(ref, tz, now, opts = {}) {
      const kept = opts.kept ? await options.filterLists?.get(ref) : undefined;
      if (kept) return kept;
      const range = parseRange("last7d", { now, tz });
      const key = await apiKey(ref);
      const base: InsightsQuery = { fromDay: range.from, toDay: range.to, assetIds: [], scannerIds: [] };
      const lists = listsOf(await options.insights.fetch(ref, key, base));
      await options.filterLists?.offer(ref, lists);
      return lists;
    },
    async build(req) {
      const range = parseRange(req.range, { now: req.now, tz: req.tz });
      const key = await apiKey(req.ref);
      const base: InsightsQuery = { fromDay: range.from, toDay: range.to, assetIds: [], scannerIds: [] };
      let assetIds = [...new Set(req.assetIds ?? [])];
      let scannerIds = [...new Set(req.scannerIds ?? [])];
      const typed = (req.assetNames?.length ?? 0) + (req.scannerNames?.length ?? 0);
      if (typed > 0) {
        // Names need the service's lists; the unfiltered reply carries them and is cached for the next step.
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
      }
      const query: InsightsQuery = { ...base, assetIds, scannerIds };
      const result = await options.insights.fetch(req.ref, key, query);
      // Type-ahead reads the lists from here later, off the path Slack waits on.
      if (result.filters) await options.filterLists?.offer(req.ref, listsOf(result));
      const digest = computeDigest(result, range);
      const view: DigestView = {
        digest,
        filters: {
          assets: result.filters?.assetId ?? null,
          scanners: result.filters?.scannerId ?? null,
          selectedAssetIds: assetIds,
          selectedScannerIds: scannerIds,
        },
        generatedAt: req.now.toISOString(),
        platformUrl: options.platformUrl,
        shareable: req.shareable ?? false,
        attribution: req.attribution,
      };
      return { view, range, query, result };
    },
  };
}
