import { distance } from "fastest-levenshtein";
import type { FilterOption } from "../analytics/types.ts";
import { AppError } from "../errors.ts";

/**
 * Resolves what a user typed (`payments / api`, `API`, a UUID) to filter values. Pure.
 * Order of preference: exact value, exact display name (case-insensitive, spaces around `/`
 * normalised), then a unique child name (`api` when only one asset is called `… / api`).
 */

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/\s*\/\s*/g, " / ")
    .replace(/\s+/g, " ")
    .trim();
const child = (s: string) => norm(s).split(" / ").pop() ?? "";

export type FilterKind = "asset" | "scanner";

export function matchFilter(kind: FilterKind, typed: string, options: readonly FilterOption[]): FilterOption {
  const t = norm(typed);
  const byValue = options.find((o) => o.value.toLowerCase() === t);
  if (byValue) return byValue;
  const exact = options.filter((o) => norm(o.displayValue) === t);
  if (exact.length === 1) return exact[0] as FilterOption;
  const candidates = exact.length > 1 ? exact : options.filter((o) => child(o.displayValue) === t);
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
  const ranked = options
    .map((o) => ({
      o,
      d: Math.min(distance(t, norm(o.displayValue)), distance(t, child(o.displayValue)) + 1),
    }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((r) => r.o.displayValue);
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
