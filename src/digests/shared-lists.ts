import type { FilterOption, InsightsFilters, InsightsResult } from "../analytics/types.ts";
import { keepRecent } from "../bounded-map.ts";

/** An account's lists as last received, and when (epoch ms). */
interface Held extends InsightsFilters {
  at: number;
}

/** Whether two lists hold the same options (value and name), in order. */
export const sameOptions = (a: readonly FilterOption[], b: readonly FilterOption[]): boolean =>
  a === b ||
  (a.length === b.length &&
    a.every((x, i) => x.value === b[i]?.value && x.displayValue === b[i]?.displayValue));

/**
 * One copy of an account's asset and scanner lists for all its replies. Every reply that carries
 * the account's whole lists is parsed afresh; the templates keep what they work out from a list
 * (its usable choices, its menus) per list object, so replies that hold equal lists are given the
 * same objects and that work is done once per account instead of once per digest. Lists are compared
 * by content (value and name, in order), so a changed list is a new one at once. Keyed by a tag of
 * the account (a keyed hash of its API key, never the key), bounded, least recently used first out.
 *
 * `fresh` gives the lists while they are recent enough to stand in for a reply's own: the lists
 * belong to the account, not to a range or a filter, so a digest asked within that time need not
 * bring them again (for an account of a few thousand assets they are most of a reply's bytes);
 * `latest` gives them however old, for a guess that a reply checks.
 */
export function createSharedLists(max = 500, now: () => number = Date.now) {
  const held = new Map<string, Held>();
  const share = (kept: FilterOption[] | undefined, fresh: FilterOption[]): FilterOption[] =>
    kept && sameOptions(kept, fresh) ? kept : fresh;

  const shared = (account: string, result: InsightsResult): InsightsResult => {
    const filters = result.filters;
    if (!filters) return result;
    const kept = held.get(account);
    const assetId = share(kept?.assetId, filters.assetId);
    const scannerId = share(kept?.scannerId, filters.scannerId);
    keepRecent(held, account, { assetId, scannerId, at: now() }, max);
    if (assetId === filters.assetId && scannerId === filters.scannerId) return result;
    return { ...result, filters: { ...filters, assetId, scannerId } };
  };
  /** The account's lists as last received, however long ago (for a guess the next reply checks). */
  const latest = (account: string): InsightsFilters | undefined => {
    const kept = held.get(account);
    return kept ? { assetId: kept.assetId, scannerId: kept.scannerId } : undefined;
  };
  /** The account's lists if a reply brought them within the last `maxAgeMs`. */
  const fresh = (account: string, maxAgeMs: number): InsightsFilters | undefined => {
    const kept = held.get(account);
    return kept && now() - kept.at < maxAgeMs ? latest(account) : undefined;
  };
  return Object.assign(shared, { fresh, latest });
}
