import type { FilterOption } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { assetIdsOfGroups, groupsGoneText, missingGroups } from "../insights/asset-groups.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { DigestService } from "./digest-service.ts";
import type { FilterLists } from "./filter-lists.ts";
import { matchFilters } from "./filter-match.ts";

export type { FilterLists } from "./filter-lists.ts";

/**
 * The lists: kept ones when a digest left them, else from the unfiltered insights reply (the same
 * cached request a digest makes), so opening the modal or subscribing by name costs no extra query.
 */
export async function loadFilterLists(
  digests: Pick<DigestService, "filterLists">,
  ref: WorkspaceRef,
  tz: string,
  now: Date,
): Promise<FilterLists> {
  return digests.filterLists(ref, tz, now);
}

/** Filters resolved for a subscription: ids to query with, names to show. */
export interface ResolvedFilters {
  assetIds: string[];
  scannerIds: string[];
  filterLabels: string[];
}

/**
 * Names as typed in `subscribe … asset:"payments / api"` to ids, matched exactly as the on-demand
 * digest matches them (unknown or ambiguous names are `bad_filter` errors with suggestions).
 */
export async function resolveFilterNames(
  digests: Pick<DigestService, "filterLists">,
  ref: WorkspaceRef,
  tz: string,
  now: Date,
  names: { assets: string[]; scanners: string[] },
): Promise<ResolvedFilters> {
  if (names.assets.length === 0 && names.scanners.length === 0)
    return { assetIds: [], scannerIds: [], filterLabels: [] };
  const lists = await loadFilterLists(digests, ref, tz, now);
  if (!lists.assets || !lists.scanners)
    throw new AppError(
      "filters_unavailable",
      "This analytics endpoint does not offer asset or scanner filters.",
    );
  const assetIds = matchFilters("asset", names.assets, lists.assets);
  const scannerIds = matchFilters("scanner", names.scanners, lists.scanners);
  return { assetIds, scannerIds, filterLabels: labelsFor(lists, assetIds, scannerIds) };
}

/**
 * A subscription's asset ids for a query made now (its alert's Why?): its own, and its groups' assets
 * of today. A group no longer there is a `group_gone` error, never left out.
 */
export async function subscriptionAssetIds(
  digests: Pick<DigestService, "filterLists">,
  sub: { ref: WorkspaceRef; tz: string; assetIds: string[]; assetGroups?: string[] },
  now: Date,
): Promise<string[]> {
  const groups = sub.assetGroups ?? [];
  if (groups.length === 0) return sub.assetIds;
  const lists = await digests.filterLists(sub.ref, sub.tz, now, { kept: true });
  if (!lists.assets)
    throw new AppError(
      "filters_unavailable",
      "This analytics endpoint does not offer asset or scanner filters.",
    );
  const gone = missingGroups(lists.assets, groups);
  if (gone.length > 0) throw new AppError("group_gone", groupsGoneText(gone), { details: { groups: gone } });
  return [...new Set([...sub.assetIds, ...assetIdsOfGroups(lists.assets, groups)])];
}

/** Display names of chosen ids (asset names first), falling back to the id when a name is unknown. */
export function labelsFor(lists: FilterLists, assetIds: string[], scannerIds: string[]): string[] {
  const name = (list: FilterOption[] | null, id: string) =>
    list?.find((o) => o.value === id)?.displayValue.trim() || id;
  return [
    ...assetIds.map((id) => name(lists.assets, id)),
    ...scannerIds.map((id) => name(lists.scanners, id)),
  ];
}
