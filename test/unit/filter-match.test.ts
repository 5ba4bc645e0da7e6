import fc from "fast-check";
import { distance } from "fastest-levenshtein";
import { describe, expect, it } from "vitest";
import { buildAccount } from "../../sandbox/analytics/index.ts";
import type { FilterOption } from "../../src/analytics/types.ts";
import { matchFilter, matchFilters } from "../../src/digests/filter-match.ts";

const assets = [
  { value: "11111111-1111-4111-8111-111111111111", displayValue: "payments / api" },
  { value: "22222222-2222-4222-8222-222222222222", displayValue: "payments / web" },
  { value: "33333333-3333-4333-8333-333333333333", displayValue: "platform / api" },
  { value: "44444444-4444-4444-8444-444444444444", displayValue: "platform / auth-service" },
];

describe("matchFilter", () => {
  it("matches by value, display name (any case and spacing) and unique child", () => {
    expect(matchFilter("asset", "22222222-2222-4222-8222-222222222222", assets).displayValue).toBe(
      "payments / web",
    );
    expect(matchFilter("asset", "Payments/API", assets).value).toBe(assets[0]?.value);
    expect(matchFilter("asset", "auth-service", assets).displayValue).toBe("platform / auth-service");
  });

  it("reports ambiguity with the candidates", () => {
    expect(() => matchFilter("asset", "api", assets)).toThrowError(
      /Several assets match "api": "payments \/ api", "platform \/ api"/,
    );
  });

  it("suggests close names for an unknown one", () => {
    try {
      matchFilter("asset", "payments / wbe", assets);
      expect.unreachable();
    } catch (err) {
      expect((err as { code: string }).code).toBe("bad_filter");
      expect((err as Error).message).toContain('Did you mean "payments / web"');
    }
  });

  it("de-duplicates resolved values", () => {
    expect(matchFilters("asset", ["payments / api", "PAYMENTS / API"], assets)).toEqual([assets[0]?.value]);
  });
});

/**
 * The rules written plainly, every name normalised on every call (as matchFilter did before it kept an
 * index per list): the oracle the indexed version must agree with.
 */
function plainMatch(typed: string, options: readonly FilterOption[]): { value: string } | { error: string } {
  const norm = (x: string) =>
    x
      .toLowerCase()
      .replace(/\s*\/\s*/g, " / ")
      .replace(/\s+/g, " ")
      .trim();
  const child = (x: string) => norm(x).split(" / ").pop() ?? "";
  const t = norm(typed);
  const byValue = options.find((o) => o.value.toLowerCase() === t);
  if (byValue) return { value: byValue.value };
  const exact = options.filter((o) => norm(o.displayValue) === t);
  if (exact.length === 1) return { value: (exact[0] as FilterOption).value };
  const candidates = exact.length > 1 ? exact : options.filter((o) => child(o.displayValue) === t);
  if (candidates.length === 1) return { value: (candidates[0] as FilterOption).value };
  if (candidates.length > 1)
    return { error: `several: ${candidates.slice(0, 5).map((o) => o.displayValue)}` };
  const ranked = options
    .map((o) => ({
      o,
      d: Math.min(distance(t, norm(o.displayValue)), distance(t, child(o.displayValue)) + 1),
    }))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((r) => r.o.displayValue);
  return { error: `none: ${ranked}` };
}

function indexedMatch(
  typed: string,
  options: readonly FilterOption[],
): { value: string } | { error: string } {
  try {
    return { value: matchFilter("asset", typed, options).value };
  } catch (err) {
    const details = (err as { details: { suggestions: string[] } }).details;
    const several = (err as Error).message.startsWith("Several");
    return { error: `${several ? "several" : "none"}: ${details.suggestions}` };
  }
}

describe("matchFilter on a large account", () => {
  const assets = buildAccount({ apiKey: "filter-match-300", assetCount: 300 }).assets;

  it("answers exactly as the plain rules do: values, names, children, ambiguity and the three closest", () => {
    const names = assets.map((a) => a.displayValue);
    const typed = fc.oneof(
      fc.constantFrom(...names),
      fc.constantFrom(...names).map((n) => n.split(" / ").pop() ?? n),
      fc.constantFrom(...assets.map((a) => a.value.toUpperCase())),
      fc
        .tuple(fc.constantFrom(...names), fc.nat(6), fc.string({ maxLength: 3 }))
        .map(([n, cut, tail]) => `${n.slice(0, Math.max(0, n.length - cut))}${tail}`.replace("/", " /  ")),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(typed, (t) => {
        expect(indexedMatch(t, assets)).toEqual(plainMatch(t, assets));
      }),
      { numRuns: 400 },
    );
  });

  it("reads a changed list afresh: the index belongs to the list it was built from", () => {
    const first = [{ value: "a1", displayValue: "payments / api" }];
    const renamed = [{ value: "a1", displayValue: "payments / gateway" }];
    expect(matchFilter("asset", "api", first).value).toBe("a1");
    expect(matchFilter("asset", "gateway", renamed).value).toBe("a1");
    expect(() => matchFilter("asset", "api", renamed)).toThrowError(/No asset is called "api"/);
  });
});
