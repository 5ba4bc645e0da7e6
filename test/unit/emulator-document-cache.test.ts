import { describe, expect, it } from "vitest";
import { createDocumentCache } from "../../sandbox/analytics/document-cache.ts";
import { createAnalyticsSchema } from "../../sandbox/analytics/schema.ts";

const schema = createAnalyticsSchema();
const good = "query Q { insights { summary { fixes } } }";
const bad = "query Q { insights { nosuchfield } }";

describe("the emulator's parsed and validated documents", () => {
  it("judges a document the same every time, and refuses a bad one every time", () => {
    const cache = createDocumentCache();
    const doc = cache.parse(good);
    expect(cache.parse(good)).toBe(doc);
    expect(cache.validate(schema, doc)).toEqual([]);
    expect(cache.validate(schema, doc)).toEqual([]);
    const wrong = cache.parse(bad);
    const first = cache.validate(schema, wrong).map((e) => e.message);
    expect(first).toEqual([expect.stringContaining('Cannot query field "nosuchfield"')]);
    expect(cache.validate(schema, wrong).map((e) => e.message)).toEqual(first);
  });

  it("validates again against other rules or another schema", () => {
    const cache = createDocumentCache();
    const doc = cache.parse(bad);
    expect(cache.validate(schema, doc)).toHaveLength(1);
    expect(cache.validate(schema, doc, [])).toEqual([]);
    const noFilters = createAnalyticsSchema({ withFilters: false });
    const filters = cache.parse("query F { insights { filters { assetId { value } } } }");
    expect(cache.validate(schema, filters)).toEqual([]);
    expect(cache.validate(noFilters, filters)).toHaveLength(1);
  });

  it("throws a syntax error each time and keeps no more than its bound", () => {
    const cache = createDocumentCache(3);
    expect(() => cache.parse("query {")).toThrow(/Syntax Error/);
    expect(() => cache.parse("query {")).toThrow(/Syntax Error/);
    const first = cache.parse("query A { insights { summary { fixes } } }");
    for (const name of ["B", "C", "D"]) cache.parse(`query ${name} { insights { summary { fixes } } }`);
    // The oldest went out: the same text parses to a new tree.
    expect(cache.parse("query A { insights { summary { fixes } } }")).not.toBe(first);
  });
});
