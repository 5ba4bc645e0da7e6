import type { FilterOption } from "../analytics/types.ts";

/**
 * Asset groups: the top level of the service's `parent / child` names. `payments / api` and
 * `payments / web` belong to `payments`; a top-level asset such as `docs` is a group of its own.
 * Groups are how a security lead thinks about ownership ("payments regressed"), and the unit the
 * drivers break a change down by.
 */

export interface AssetGroup {
  /** The parent name as the service spells it (trimmed), e.g. `payments`. */
  name: string;
  /** How the digest names it: `payments/*` when it has children, else the asset's own name. */
  label: string;
  /** Asset ids in the group, in the service's order. */
  assetIds: string[];
}

const SEPARATOR = "/";
/** Assets whose display name is blank still need a group; the id is all we know of them. */
const UNNAMED = "(unnamed)";

/**
 * The group an asset's display name belongs to, and whether the name has a child part.
 *
 * @example groupNameOf("payments / api") // { name: "payments", nested: true }
 * @example groupNameOf("docs") // { name: "docs", nested: false }
 */
export function groupNameOf(displayValue: string): { name: string; nested: boolean } {
  const at = displayValue.indexOf(SEPARATOR);
  const parent = (at > 0 ? displayValue.slice(0, at) : displayValue).trim();
  const nested = at > 0 && parent !== "" && displayValue.slice(at + 1).trim() !== "";
  if (!nested) return { name: displayValue.trim() || UNNAMED, nested: false };
  return { name: parent, nested: true };
}

/**
 * The account's assets by group, largest group first (ties by name), each asset once. Only assets in
 * `scope` are kept when a scope is given (a digest filtered to some assets breaks down only those).
 *
 * @example groupAssets([{ value: "a1", displayValue: "payments / api" }]) // [{ name: "payments", label: "payments/*", assetIds: ["a1"] }]
 */
export function groupAssets(assets: readonly FilterOption[], scope?: ReadonlySet<string>): AssetGroup[] {
  const groups = new Map<string, { assetIds: string[]; nested: boolean }>();
  const seen = new Set<string>();
  for (const asset of assets) {
    if (seen.has(asset.value) || (scope && !scope.has(asset.value))) continue;
    seen.add(asset.value);
    const { name, nested } = groupNameOf(asset.displayValue);
    const group = groups.get(name) ?? { assetIds: [], nested: false };
    group.assetIds.push(asset.value);
    group.nested ||= nested;
    groups.set(name, group);
  }
  return [...groups.entries()]
    .map(([name, g]) => ({ name, label: g.nested ? `${name}${SEPARATOR}*` : name, assetIds: g.assetIds }))
    .sort(
      (a, b) => b.assetIds.length - a.assetIds.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
}

/** The named groups no asset of the list belongs to any more, in the order named. */
export function missingGroups(assets: readonly FilterOption[], names: readonly string[]): string[] {
  const known = new Set(assets.map((a) => groupNameOf(a.displayValue).name));
  return [...new Set(names)].filter((n) => !known.has(n));
}

/** The words for groups that are gone: `No asset group is called "a" any more.` */
export function groupsGoneText(names: readonly string[]): string {
  return names.length === 1
    ? `No asset group is called "${names[0]}" any more.`
    : `No asset groups are called "${names.join('", "')}" any more.`;
}

/** Ids of the assets in the named groups (unknown names match nothing), in the service's order. */
export function assetIdsOfGroups(assets: readonly FilterOption[], names: readonly string[]): string[] {
  const wanted = new Set(names);
  const ids = assets.filter((a) => wanted.has(groupNameOf(a.displayValue).name)).map((a) => a.value);
  return [...new Set(ids)];
}
