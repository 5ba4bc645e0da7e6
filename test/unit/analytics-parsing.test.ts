import fc from "fast-check";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  AnalyticsError,
  endpointFromConfig,
  INTROSPECTION_DOCUMENT,
  insightsDocument,
  insightsVariables,
  parseInsightsData,
  parseIntrospectionData,
} from "../../src/analytics/index.ts";
import { wholeAccount } from "../fixtures/analytics-contract.ts";

const validInsights = () => ({
  insights: {
    dailyMetric: [
      { timeStamp: "2026-11-01T00:00:00", violations: 3, findings: 5 },
      { timeStamp: "2026-11-02T00:00:00", violations: 0, findings: 0 },
    ],
    dailyActivity: [
      { timeStamp: "2026-11-01T00:00:00", fixedViolations: 1, mergedViolations: 2 },
      { timeStamp: "2026-11-02T00:00:00", fixedViolations: 0, mergedViolations: 0 },
    ],
    summary: {
      findings: { previous: 4, current: 5 },
      violations: { previous: 2, current: 3 },
      fixes: 1,
      mergedViolations: 2,
    },
    filters: {
      scannerId: [{ value: "semgrep", displayValue: "Semgrep" }],
      assetId: [{ value: "0b3f0e5e-0000-4000-8000-000000000001", displayValue: "payments / api" }],
    },
  },
});

function badResponse(fn: () => unknown): AnalyticsError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AnalyticsError);
    expect((err as AnalyticsError).code).toBe("bad_response");
    return err as AnalyticsError;
  }
  throw new Error("expected bad_response");
}

describe("parseInsightsData", () => {
  it("accepts a valid reply and keeps filters only when they were selected", () => {
    const withF = parseInsightsData(validInsights(), true);
    expect(withF.summary.findings).toEqual({ previous: 4, current: 5 });
    expect(withF.filters?.assetId[0]?.displayValue).toBe("payments / api");
    expect(parseInsightsData(validInsights(), false).filters).toBeUndefined();
  });

  it("accepts unknown extra fields and any key order, dropping the extras", () => {
    const data = {
      extra: 1,
      insights: {
        summary: {
          mergedViolations: 2,
          fixes: 1,
          violations: { current: 3, previous: 2, x: 1 },
          findings: { current: 5, previous: 4 },
        },
        dailyActivity: [
          { mergedViolations: 2, fixedViolations: 1, timeStamp: "2026-11-01T00:00:00", note: "x" },
        ],
        dailyMetric: [{ findings: 5, violations: 3, timeStamp: "2026-11-01T00:00:00", severity: "high" }],
        somethingNew: { a: [1, 2] },
      },
    };
    const r = parseInsightsData(data, false);
    expect(r.dailyMetric).toEqual([{ timeStamp: "2026-11-01T00:00:00", findings: 5, violations: 3 }]);
    expect(r.summary.violations).toEqual({ previous: 2, current: 3 });
    expect(Object.keys(r).sort()).toEqual(["dailyActivity", "dailyMetric", "summary"]);
  });

  it("normalizes tolerated timestamp spellings to YYYY-MM-DDT00:00:00", () => {
    const data = validInsights();
    data.insights.dailyMetric[0]!.timeStamp = "2026-11-01T00:00:00.000Z";
    expect(parseInsightsData(data, true).dailyMetric[0]?.timeStamp).toBe("2026-11-01T00:00:00");
  });

  type Data = ReturnType<typeof validInsights>;
  /** Each case returns the data to parse, usually a mutated valid reply. */
  const cases: [string, (d: Data) => unknown][] = [
    ["null data", () => null],
    ["null insights", () => ({ insights: null })],
    ["string count", (d) => set(d, () => ((d.insights.dailyMetric[0] as any).findings = "5"))],
    ["negative count", (d) => set(d, () => ((d.insights.summary as any).fixes = -1))],
    ["fractional count", (d) => set(d, () => ((d.insights.summary.findings as any).current = 1.5))],
    ["unsafe integer", (d) => set(d, () => ((d.insights.summary as any).mergedViolations = 2 ** 60))],
    ["missing summary", (d) => set(d, () => delete (d.insights as any).summary)],
    ["missing field", (d) => set(d, () => delete (d.insights.dailyActivity[0] as any).fixedViolations)],
    ["list is an object", (d) => set(d, () => ((d.insights as any).dailyMetric = { 0: 1 }))],
    [
      "timestamp with a time",
      (d) => set(d, () => (d.insights.dailyMetric[0]!.timeStamp = "2026-11-01T13:00:00")),
    ],
    ["timestamp date only", (d) => set(d, () => (d.insights.dailyMetric[0]!.timeStamp = "2026-11-01"))],
    ["impossible day", (d) => set(d, () => (d.insights.dailyActivity[0]!.timeStamp = "2026-02-30T00:00:00"))],
    ["non-string filter value", (d) => set(d, () => ((d.insights.filters.assetId[0] as any).value = 7))],
  ];
  const set = (d: Data, change: () => unknown) => {
    change();
    return d;
  };
  it.each(cases)("rejects %s as bad_response", (_name, make) => {
    badResponse(() => parseInsightsData(make(validInsights()), true));
  });

  it("never throws anything but AnalyticsError for arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        try {
          parseInsightsData(v, true);
        } catch (err) {
          expect(err).toBeInstanceOf(AnalyticsError);
        }
      }),
    );
  });

  it("says where the shape is wrong without echoing values", () => {
    const d = validInsights();
    (d.insights.summary as any).fixes = "SECRET-LOOKING-VALUE";
    const err = badResponse(() => parseInsightsData(d, true));
    expect(err.message).toContain("insights.summary.fixes");
    expect(err.message).not.toContain("SECRET-LOOKING-VALUE");
  });
});

describe("parseIntrospectionData", () => {
  const reply = (insightsFields: string[] | null, mutation: unknown = null) => ({
    __schema: {
      queryType: {
        fields: [
          { name: "topRepositories", type: { fields: null, ofType: { fields: [{ name: "x" }] } } },
          {
            name: "insights",
            type: { fields: null, ofType: { fields: insightsFields?.map((name) => ({ name })) ?? null } },
          },
          { name: "coverage", type: { fields: [{ name: "filters" }], ofType: null } },
        ],
      },
      mutationType: mutation,
    },
  });

  it("lists root fields sorted, null mutations, and finds filters through NON_NULL", () => {
    expect(parseIntrospectionData(reply(["dailyMetric", "filters"]))).toEqual({
      queryFields: ["coverage", "insights", "topRepositories"],
      mutationFields: null,
      filtersSelectable: true,
    });
  });

  it("reports filters unselectable when the insights type lacks it (another field's filters do not count)", () => {
    expect(parseIntrospectionData(reply(["dailyMetric", "summary"])).filtersSelectable).toBe(false);
  });

  it("lists mutation fields when there is a mutation type", () => {
    const r = parseIntrospectionData(reply(["filters"], { fields: [{ name: "b" }, { name: "a" }] }));
    expect(r.mutationFields).toEqual(["a", "b"]);
  });

  it("rejects a reply without __schema", () => {
    badResponse(() => parseIntrospectionData({ data: 1 }));
  });
});

describe("documents", () => {
  it("declares exactly the seed's variables and selects filters only when asked", () => {
    const doc = insightsDocument(false);
    expect(doc).toContain(
      "query Insights($from_day: Date, $to_day: Date, $scannerIdsFilter: [String!], $assetIdsFilter: [String!], $max_rules: Int)",
    );
    expect(doc).toContain(
      "insights(fromDay: $from_day, toDay: $to_day, maxRules: $max_rules, filters: {scannerIds: $scannerIdsFilter, assetIds: $assetIdsFilter})",
    );
    expect(doc).not.toContain("filters {");
    expect(insightsDocument(true)).toContain(
      "filters { scannerId { value displayValue } assetId { value displayValue } }",
    );
    for (const d of [doc, insightsDocument(true), INTROSPECTION_DOCUMENT]) {
      expect(d).not.toMatch(/\n/);
      expect(() => parse(d)).not.toThrow();
    }
  });

  it("sends no filter as empty lists and omits max_rules unless given", () => {
    expect(insightsVariables({ fromDay: "2026-11-01", toDay: "2026-11-07" })).toEqual(
      wholeAccount("2026-11-01", "2026-11-07"),
    );
    expect(
      insightsVariables({ fromDay: "2026-11-01", toDay: "2026-11-01", assetIds: ["a"], maxRules: 5 }),
    ).toMatchObject({
      assetIdsFilter: ["a"],
      max_rules: 5,
    });
  });

  it.each([
    [{ fromDay: "2026-11-08", toDay: "2026-11-07" }],
    [{ fromDay: "2026-13-01", toDay: "2026-11-07" }],
    [{ fromDay: "01/11/2026", toDay: "2026-11-07" }],
    [{ fromDay: "2026-11-01", toDay: "2026-11-07", assetIds: [""] }],
    [{ fromDay: "2026-11-01", toDay: "2026-11-07", maxRules: -1 }],
  ])("refuses bad input %j as bad_request", (q) => {
    expect(() => insightsVariables(q)).toThrowError(expect.objectContaining({ code: "bad_request" }));
  });
});

describe("endpointFromConfig", () => {
  const app = "https://app.example.com";
  it.each([
    [
      'window.config = { apiUrl: "https://api.example.com/graphql" };',
      "https://api.example.com/analytics/graphql",
    ],
    ["window.c={a:'https://api.example.com/v2/graphql/'}", "https://api.example.com/v2/analytics/graphql"],
    ['{"x":"https:\\/\\/api.example.com\\/graphql"}', "https://api.example.com/analytics/graphql"],
    ['c = {s: "https://api.example.com/analytics/graphql"}', "https://api.example.com/analytics/graphql"],
    [
      'a="https://cdn.example.com/app.js"; b="https://api.example.com/graphql"',
      "https://api.example.com/analytics/graphql",
    ],
    ['g = "/graphql"', "https://app.example.com/analytics/graphql"],
    ["API=https://api.example.com/graphql\n", "https://api.example.com/analytics/graphql"],
    ['x = "https://api.example.com/graphql?v=1"', "https://api.example.com/analytics/graphql"],
  ])("finds the service endpoint in %s", (js, expected) => {
    expect(endpointFromConfig(js, app, "analytics")).toBe(expected);
  });

  it("prefers the URL that is already the service's endpoint", () => {
    const js = 'a="https://api.example.com/graphql"; b="https://api.example.com/analytics/graphql"';
    expect(endpointFromConfig(js, app, "analytics")).toBe("https://api.example.com/analytics/graphql");
    expect(endpointFromConfig(js, app, "scans")).toBe("https://api.example.com/scans/graphql");
  });

  it.each([
    ['x = "https://api.example.com/rest"'],
    ['x = "ftp://api.example.com/graphql"'],
    ['x = "graphql"'],
    [""],
  ])("finds nothing in %s", (js) => {
    expect(endpointFromConfig(js, app, "analytics")).toBeUndefined();
  });
});
