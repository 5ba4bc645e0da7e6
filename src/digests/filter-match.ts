import { distance } from "fastest-levenshtein";
import type { FilterOption } from "../analytics/types.ts";
import { AppError } from "../errors.ts";
import { TopN } from "../top-n.ts";

/**
 * Resolves what a user typed (`payments / api`, `API`, a UUID) to filter values. Pure.
 * Order of preference: exact value, exact display name (case-insensitive, spaces around `/`
 * normalised), then a unique child name (`api` when only one asset is called `… / api`).
 */

const norm = (s: string) =>
  s
    // "é" as one character or as "e" and an accent: the same name either way.
    .normalize("NFKC")
    .toLowerCase()
    .replace(/\s*\/\s*/g, " / ")
    .replace(/\s+/g, " ")
    .trim();

export type FilterKind = "asset" | "scanner";

/** An options list read once: what every lookup in it needs, by the list's identity. */
interface OptionIndex {
  /** Lower-cased value → the first option with it. */
  byValue: Map<string, FilterOption>;
  /** Normalised display name → its options, in list order. */
  byName: Map<string, FilterOption[]>;
  /** Last part of the normalised name → its options, in list order. */
  byChild: Map<string, FilterOption[]>;
  names: string[];
  children: string[];
}

// Accounts' lists are shared objects (one per account while unchanged), and an account of thousands
// of assets cost tens of milliseconds per typed name when each lookup normalised every name again.
const indexes = new WeakMap<readonly FilterOption[], OptionIndex>();

function indexOf(options: readonly FilterOption[]): OptionIndex {
  const known = indexes.get(options);
  if (known) return known;
  const index: OptionIndex = {
    byValue: new Map(),
    byName: new Map(),
    byChild: new Map(),
    names: [],
    children: [],
  };
  const add = (map: Map<string, FilterOption[]>, key: string, o: FilterOption) => {
    const list = map.get(key);
    if (list) list.push(o);
    else map.set(key, [o]);
  };
  for (const o of options) {
    const value = o.value.toLowerCase();
    if (!index.byValue.has(value)) index.byValue.set(value, o);
    const name = norm(o.displayValue);
    const last = name.split(" / ").pop() ?? "";
    index.names.push(name);
    index.children.push(last);
    add(index.byName, name, o);
    add(index.byChild, last, o);
  }
  indexes.set(options, index);
  return index;
}

/**
 * The three names closest to `t` (edit distance to the whole name, or to its last part plus one), in
 * list order among equals. A name whose length alone puts it past the third found is not measured.
 */
function closest(t: string, options: readonly FilterOption[], index: OptionIndex): string[] {
  const top = new TopN<{ d: number; i: number }>(3, (a, b) => a.d - b.d);
  for (let i = 0; i < options.length; i++) {
    const name = index.names[i] as string;
    const last = index.children[i] as string;
    const bound = Math.min(Math.abs(t.length - name.length), Math.abs(t.length - last.length) + 1);
    if (bound >= (top.worst?.d ?? Number.POSITIVE_INFINITY)) continue;
    top.offer({ d: Math.min(distance(t, name), distance(t, last) + 1), i });
  }
  return top.kept.map((r) => (options[r.i] as FilterOption).displayValue);
}

export function matchFilter(kind: FilterKind, typed: string, options: readonly FilterOption[]): FilterOption {
  const t = norm(typed);
  const index = indexOf(options);
  const byValue = index.byValue.get(t);
  if (byValue) return byValue;
  const exact = index.byName.get(t) ?? [];
  if (exact.length === 1) return exact[0] as FilterOption;
  const candidates = exact.length > 1 ? exact : (index.byChild.get(t) ?? []);
  if (candidates.length === 1) return candidates[0] as FilterOption;
  if (candidates.length > 1) {
    const names = candidates.slice(0, 5).map((o) => `"${o.displayValue}"`);
    throw new AppError(
      "bad_filter",
      `Several ${kind}s match "${typed}": ${names.join(", ")}. Use the full name.`,
      {
        details: { kind, suggestions: candidates.slice(0, 5).map((o) => o.displayValue) },
      },
    );
  }
  const ranked = closest(t, options, index);
  const hint = ranked.length > 0 ? ` Did you mean ${ranked.map((n) => `"${n}"`).join(", ")}?` : "";
  throw new AppError("bad_filter", `No ${kind} is called "${typed}".${hint}`, {
    details: { kind, suggestions: ranked },
  });
}

/** Resolves many names, de-duplicating values. */
export function matchFilters(
  kind: FilterKind,
  typed: readonly string[],
  options: readonly FilterOption[],
): string[] {
  return [...new Set(typed.map((t) => matchFilter(kind, t, options).value))];
}
