import type { FilterOption, InsightsFilters, InsightsResult } from "../analytics/types.ts";
import { keepRecent } from "../bounded-map.ts";

/**
 * One copy of an account's asset and scanner lists for all its replies. Every reply carries the
 * account's whole lists, parsed afresh each time; the templates keep what they work out from a list
 * (its usable choices, its menus) per list object, so replies that hold equal lists are given the
 * same objects and that work is done once per account instead of once per digest. Lists are compared
 * by content (value and name, in order), so a changed list is a new one at once. Keyed by a tag of
 * the account (a keyed hash of its API key, never the key), bounded, least recently used first out.
 */
export function createSharedLists(max = 500) {
  const held = new Map<string, InsightsFilters>();
  const same = (a: readonly FilterOption[], b: readonly FilterOption[]) =>
    a.length === b.length &&
    a.every((x, i) => x.value === b[i]?.value && x.displayValue === b[i]?.displayValue);
  const share = (kept: FilterOption[] | undefined, fresh: FilterOption[]): FilterOption[] =>
    kept && kept !== fresh && same(kept, fresh) ? kept : fresh;

  return (account: string, result: InsightsResult): InsightsResult => {
    const filters = result.filters;
    if (!filters) return result;
    const kept = held.get(account);
    const assetId = share(kept?.assetId, filters.assetId);
    const scannerId = share(kept?.scannerId, filters.scannerId);
    keepRecent(held, account, { assetId, scannerId }, max);
    if (assetId === filters.assetId && scannerId === filters.scannerId) return result;
    return { ...result, filters: { ...filters, assetId, scannerId } };
  };
}
