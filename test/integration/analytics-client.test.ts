import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { buildSchema, graphql } from "graphql";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  accountFor,
  DEMO_API_KEY,
  dailyCounts,
  type Emulator,
  SECOND_API_KEY,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import {
  type AnalyticsClientOptions,
  AnalyticsError,
  createAnalyticsClient,
  type InsightsQuery,
} from "../../src/analytics/index.ts";
import { createLogger } from "../../src/log.ts";
import { oneDayInsights, QUERY_ROOT_FIELDS, wholeAccount } from "../fixtures/analytics-contract.ts";

/*
 * The client against the real emulator over HTTP (and a tiny GraphQL server whose insights type has
 * no `filters`). Retry backoff and timeouts are small so the file stays fast.
 */

const TODAY = "2026-11-20";
const WRONG_KEY = "wrong-key-Zq8v3TsecretXYZ";
const WEEK: InsightsQuery = { fromDay: "2026-11-10", toDay: "2026-11-16" };
const ALL_KEYS = [DEMO_API_KEY, SECOND_API_KEY, WRONG_KEY];

const logLines: string[] = [];
const logger = createLogger({
  level: "debug",
  destination: { write: (line: string) => logLines.push(line) },
});
const errorMessages: string[] = [];

let emu: Emulator;
let noFilters: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY });
  noFilters = await startEmulator({ today: () => TODAY, insightsFilters: false });
});
afterAll(async () => {
  await Promise.all([emu?.close(), noFilters?.close()]);
});
afterEach(() => emu.clearFaults());

function client(extra: Partial<AnalyticsClientOptions> = {}) {
  return createAnalyticsClient({
    graphqlUrl: emu.graphqlUrl,
    timeoutMs: 400,
    retry: { attempts: 3, baseMs: 5, maxMs: 20, maxTotalMs: 5000 },
    logger,
    ...extra,
  });
}

/** Runs `fn`, expects an AnalyticsError, and keeps its message for the no-key-in-messages check. */
async function failure(fn: () => Promise<unknown>): Promise<AnalyticsError> {
  const err = await fn().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AnalyticsError);
  const e = err as AnalyticsError;
  errorMessages.push(e.message, e.stack ?? "", JSON.stringify(e.details));
  return e;
}

/** Independent oracle: sums of the emulator's per-day counts. */
function expected(apiKey: string, q: InsightsQuery) {
  const account = accountFor(apiKey);
  if (!account) throw new Error("unknown account");
  const days = (from: string, n: number) =>
    Array.from({ length: n }, (_, i) =>
      new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10),
    );
  const n = (Date.parse(q.toDay) - Date.parse(q.fromDay)) / 86_400_000 + 1;
  const current = days(q.fromDay, n);
  const previous = days(new Date(Date.parse(q.fromDay) - n * 86_400_000).toISOString().slice(0, 10), n);
  const counts = (d: string) => dailyCounts(account, d, q.assetIds, q.scannerIds);
  const sum = (list: string[], f: "findings" | "violations" | "fixedViolations" | "mergedViolations") =>
    list.reduce((s, d) => s + counts(d)[f], 0);
  return {
    account,
    dailyMetric: current.map((d) => ({
      timeStamp: `${d}T00:00:00`,
      findings: counts(d).findings,
      violations: counts(d).violations,
    })),
    summary: {
      findings: { previous: sum(previous, "findings"), current: sum(current, "findings") },
      violations: { previous: sum(previous, "violations"), current: sum(current, "violations") },
      fixes: sum(current, "fixedViolations"),
      mergedViolations: sum(current, "mergedViolations"),
    },
  };
}

describe("happy path", () => {
  it("returns the emulator's numbers and filter lists", async () => {
    const result = await client().insights(DEMO_API_KEY, WEEK);
    const want = expected(DEMO_API_KEY, WEEK);
    expect(result.dailyMetric).toEqual(want.dailyMetric);
    expect(result.dailyActivity).toHaveLength(7);
    expect(result.summary).toEqual(want.summary);
    expect(result.summary.findings.current).toBeGreaterThan(0);
    expect(result.filters?.assetId).toEqual(want.account.assets);
    expect(result.filters?.scannerId).toEqual(want.account.scanners);
  });

  it("asks a digest's question and slices in one request: the same answers as each asked alone", async () => {
    const account = accountFor(SECOND_API_KEY)!;
    const q = { ...WEEK, assetIds: [account.assets[0]!.value], scannerIds: [] };
    const slices = [
      { fromDay: WEEK.fromDay, toDay: WEEK.toDay, assetIds: [account.assets[1]!.value], scannerIds: [] },
      { fromDay: WEEK.fromDay, toDay: WEEK.toDay, assetIds: [], scannerIds: [account.scanners[0]!.value] },
    ];
    const c = client();
    // Whether `filters` is selectable is asked once per endpoint; asked here, it is not counted below.
    await c.introspect(SECOND_API_KEY);
    const before = emu.requestCount();
    const both = await c.insightsWithSlices(SECOND_API_KEY, q, undefined, slices);
    expect(emu.requestCount() - before).toBe(1);
    expect(both.insights).toEqual(await c.insights(SECOND_API_KEY, q));
    expect(both.insights.filters?.assetId).toEqual(account.assets);
    expect(both.slices).toEqual(await c.slices(SECOND_API_KEY, slices));
    // Without the lists where the caller holds them.
    const lean = await c.insightsWithSlices(SECOND_API_KEY, q, { lists: false }, slices);
    expect(lean.insights.filters).toBeUndefined();
    expect(lean.insights.summary).toEqual(both.insights.summary);
  });

  it("applies asset and scanner filters and keys select accounts", async () => {
    const account = accountFor(SECOND_API_KEY)!;
    const q = { ...WEEK, assetIds: [account.assets[0]!.value], scannerIds: [account.scanners[0]!.value] };
    const result = await client().insights(SECOND_API_KEY, q);
    expect(result.summary).toEqual(expected(SECOND_API_KEY, q).summary);
    expect(result.summary).not.toEqual(expected(DEMO_API_KEY, WEEK).summary);
  });

  it("discovers the endpoint from {appUrl}/config.js", async () => {
    const c = client({ graphqlUrl: undefined, appUrl: emu.appUrl });
    await expect(c.endpoint()).resolves.toBe(emu.graphqlUrl);
    const result = await c.insights(DEMO_API_KEY, WEEK);
    expect(result.summary).toEqual(expected(DEMO_API_KEY, WEEK).summary);
  });

  it("introspects root fields in any order, with no mutation type, and verifies keys", async () => {
    const c = client();
    const info = await c.introspect(DEMO_API_KEY);
    expect(info).toEqual({
      queryFields: QUERY_ROOT_FIELDS,
      mutationFields: null,
      filtersSelectable: true,
    });
    await expect(c.verifyKey(SECOND_API_KEY)).resolves.toBeUndefined();
    const err = await failure(() => c.verifyKey(WRONG_KEY));
    expect(err).toMatchObject({ code: "unauthorized", status: 401 });
  });
});

describe("the request on the wire", () => {
  it("POSTs single-line {query, variables} with ApiKey auth and the seed's variables", async () => {
    await client().insights(DEMO_API_KEY, WEEK);
    const last = emu.lastRequest()!;
    expect(last.headers.authorization).toBe(`ApiKey ${DEMO_API_KEY}`);
    expect(last.headers["content-type"]).toBe("application/json");
    expect(last.headers.accept).toBe("application/json");
    expect(Number(last.headers["content-length"])).toBe(Buffer.byteLength(last.body));
    expect(last.body).not.toMatch(/[\r\n]/);
    const body = JSON.parse(last.body);
    expect(Object.keys(body)).toEqual(["query", "variables"]);
    expect(body.query).toContain(
      "query Insights($from_day: Date, $to_day: Date, $scannerIdsFilter: [String!], $assetIdsFilter: [String!], $max_rules: Int)",
    );
    expect(body.query).toContain(
      "filters { scannerId { value displayValue } assetId { value displayValue } }",
    );
    expect(body.variables).toEqual(wholeAccount("2026-11-10", "2026-11-16"));
  });

  it("leaves filters out where the endpoint's insights type has none (emulator without filters)", async () => {
    const c = client({ graphqlUrl: noFilters.graphqlUrl });
    expect((await c.introspect(DEMO_API_KEY)).filtersSelectable).toBe(false);
    const result = await c.insights(DEMO_API_KEY, WEEK);
    expect(result.filters).toBeUndefined();
    expect(result.summary).toEqual(expected(DEMO_API_KEY, WEEK).summary);
    expect(JSON.parse(noFilters.lastRequest()!.body).query).not.toContain("filters {");
  });

  describe("against a minimal GraphQL server without filters but with mutations", () => {
    const seen: { method: string; headers: Record<string, unknown>; body: string }[] = [];
    let server: Server;
    let url = "";
    const schema = buildSchema(`
      scalar Date
      input InsightsFilter { scannerIds: [String!] assetIds: [String!] }
      type Day { timeStamp: String! violations: Int! findings: Int! }
      type Activity { timeStamp: String! fixedViolations: Int! mergedViolations: Int! }
      type Pair { previous: Int! current: Int! }
      type Summary { findings: Pair! violations: Pair! fixes: Int! mergedViolations: Int! }
      type Insights { dailyMetric: [Day!]! dailyActivity: [Activity!]! summary: Summary! }
      type Query { insights(fromDay: Date, toDay: Date, maxRules: Int, filters: InsightsFilter): Insights! coverage: Int }
      type Mutation { touch: Int }
    `);
    const rootValue = {
      insights: () => oneDayInsights("2026-11-10", { findings: 3, violations: 2, fixes: 1, merged: 0 }),
    };

    beforeAll(async () => {
      server = createServer((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => {
          body += c.toString("utf8");
        });
        req.on("end", async () => {
          seen.push({ method: req.method ?? "", headers: req.headers, body });
          const { query, variables } = JSON.parse(body);
          const result = await graphql({ schema, source: query, variableValues: variables, rootValue });
          res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/analytics/graphql`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("reports mutation fields and no filters, then queries insights without them", async () => {
      const c = client({ graphqlUrl: url });
      expect(await c.introspect("any-key")).toEqual({
        queryFields: ["coverage", "insights"],
        mutationFields: ["touch"],
        filtersSelectable: false,
      });
      const result = await c.insights("any-key", WEEK);
      expect(result.summary.findings).toEqual({ previous: 1, current: 3 });
      expect(result.filters).toBeUndefined();
      const last = seen.at(-1)!;
      expect(last.method).toBe("POST");
      expect(last.headers.authorization).toBe("ApiKey any-key");
      expect(JSON.parse(last.body).query).not.toContain("filters {");
      expect(seen).toHaveLength(2);
    });
  });
});

describe("errors from injected faults", () => {
  /** A client whose introspection cache is already warm, so each fault hits the insights POST. */
  async function warm(extra: Partial<AnalyticsClientOptions> = {}) {
    const c = client(extra);
    await c.introspect(DEMO_API_KEY);
    return c;
  }

  it("401 for a wrong key → unauthorized, one request, no retry", async () => {
    const before = emu.requestCount();
    const err = await failure(() => client().insights(WRONG_KEY, WEEK));
    expect(err).toMatchObject({ code: "unauthorized", status: 401 });
    expect(emu.requestCount() - before).toBe(1);
  });

  it.each([
    [403, "unauthorized"],
    [400, "bad_request"],
  ])("%i → %s, one request", async (status, code) => {
    const c = await warm();
    const before = emu.requestCount();
    emu.inject({ kind: "status", status }, 3);
    expect(await failure(() => c.insights(DEMO_API_KEY, WEEK))).toMatchObject({ code, status });
    expect(emu.requestCount() - before).toBe(1);
  });

  it("429 with Retry-After: waits at least that long, then succeeds", async () => {
    const c = await warm();
    emu.inject({ kind: "rate_limit", retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await c.insights(DEMO_API_KEY, WEEK);
    // 10 ms of slack for clock granularity; the backoff alone would be under 20 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
    expect(result.summary).toEqual(expected(DEMO_API_KEY, WEEK).summary);
  });

  it("429 past the attempts → rate_limited with retryAfterMs", async () => {
    const sleeps: number[] = [];
    const c = await warm({ sleep: async (ms) => void sleeps.push(ms) });
    const before = emu.requestCount();
    emu.inject({ kind: "rate_limit", retryAfterSeconds: 2 }, 3);
    const err = await failure(() => c.insights(DEMO_API_KEY, WEEK));
    expect(err).toMatchObject({ code: "rate_limited", status: 429, retryAfterMs: 2000 });
    expect(sleeps).toEqual([2000, 2000]);
    expect(emu.requestCount() - before).toBe(3);
  });

  it("5xx twice, then success: retried transparently", async () => {
    const c = await warm();
    const before = emu.requestCount();
    emu.inject({ kind: "status", status: 503 }, 2);
    const result = await c.insights(DEMO_API_KEY, WEEK);
    expect(result.summary).toEqual(expected(DEMO_API_KEY, WEEK).summary);
    expect(emu.requestCount() - before).toBe(3);
  });

  it("5xx on every attempt → unavailable after the attempt cap", async () => {
    const c = await warm();
    const before = emu.requestCount();
    emu.inject({ kind: "status", status: 502 }, 5);
    expect(await failure(() => c.insights(DEMO_API_KEY, WEEK))).toMatchObject({
      code: "unavailable",
      status: 502,
    });
    expect(emu.requestCount() - before).toBe(3);
  });

  it("hang → timeout → unavailable", async () => {
    const c = await warm({ timeoutMs: 150, retry: { attempts: 2, baseMs: 1, maxMs: 1 } });
    emu.inject({ kind: "hang" }, 2);
    const started = Date.now();
    const err = await failure(() => c.insights(DEMO_API_KEY, WEEK));
    expect(err.code).toBe("unavailable");
    expect(err.message).toMatch(/timed out after 150 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("latency under the timeout is fine", async () => {
    const c = await warm();
    emu.inject({ kind: "latency", ms: 100 });
    await expect(c.insights(DEMO_API_KEY, WEEK)).resolves.toHaveProperty("summary");
  });

  it("malformed body → bad_response, one request", async () => {
    const c = await warm();
    const before = emu.requestCount();
    emu.inject({ kind: "malformed" }, 3);
    expect(await failure(() => c.insights(DEMO_API_KEY, WEEK))).toMatchObject({ code: "bad_response" });
    expect(emu.requestCount() - before).toBe(1);
  });

  it("an errors array → graphql with the server's messages, one request", async () => {
    const c = await warm();
    const before = emu.requestCount();
    const err = await failure(() => c.insights(DEMO_API_KEY, { fromDay: "2024-01-01", toDay: "2026-01-01" }));
    expect(err.code).toBe("graphql");
    expect(err.graphqlMessages.join(" ")).toMatch(/366/);
    expect(emu.requestCount() - before).toBe(1);
  });

  it("bad input → bad_request before any request", async () => {
    const before = emu.requestCount();
    expect(
      await failure(() => client().insights(DEMO_API_KEY, { fromDay: "2026-11-16", toDay: "2026-11-10" })),
    ).toMatchObject({
      code: "bad_request",
    });
    expect(emu.requestCount()).toBe(before);
  });

  it("network failure → unavailable", async () => {
    const closed = await startEmulator();
    const url = closed.graphqlUrl;
    await closed.close();
    const err = await failure(() =>
      client({ graphqlUrl: url, retry: { attempts: 2, baseMs: 1, maxMs: 1 } }).introspect(DEMO_API_KEY),
    );
    expect(err.code).toBe("unavailable");
  });
});

describe("untrusted replies", () => {
  const good = () => {
    const w = expected(DEMO_API_KEY, { fromDay: "2026-11-10", toDay: "2026-11-10" });
    return {
      dailyMetric: w.dailyMetric,
      dailyActivity: [{ timeStamp: "2026-11-10T00:00:00", fixedViolations: 1, mergedViolations: 2 }],
      summary: w.summary,
      filters: { scannerId: w.account.scanners, assetId: w.account.assets },
    };
  };

  it("accepts unknown extra fields and reordered fields", async () => {
    const c = client();
    await c.introspect(DEMO_API_KEY);
    const g = good();
    const reordered = {
      extensions: { cost: 3 },
      data: {
        insights: {
          newThing: [1, 2, 3],
          filters: { assetId: g.filters.assetId, scannerId: g.filters.scannerId, more: true },
          summary: {
            mergedViolations: g.summary.mergedViolations,
            fixes: g.summary.fixes,
            violations: g.summary.violations,
            findings: g.summary.findings,
          },
          dailyActivity: g.dailyActivity.map((a) => ({
            mergedViolations: a.mergedViolations,
            extra: "x",
            fixedViolations: a.fixedViolations,
            timeStamp: a.timeStamp,
          })),
          dailyMetric: g.dailyMetric.map((m) => ({
            violations: m.violations,
            findings: m.findings,
            timeStamp: m.timeStamp,
            severity: {},
          })),
        },
        somethingElse: null,
      },
    };
    emu.inject({ kind: "reply", body: reordered });
    const result = await c.insights(DEMO_API_KEY, { fromDay: "2026-11-10", toDay: "2026-11-10" });
    expect(result).toEqual(g);
  });

  const broken: [string, (g: ReturnType<typeof good>) => unknown][] = [
    ["null data", () => ({ data: null })],
    ["no data", () => ({})],
    ["null insights", () => ({ data: { insights: null } })],
    ["a string count", (g) => ({ data: { insights: { ...g, summary: { ...g.summary, fixes: "7" } } } })],
    [
      "a negative count",
      (g) => ({ data: { insights: { ...g, summary: { ...g.summary, mergedViolations: -4 } } } }),
    ],
    ["a missing field", (g) => ({ data: { insights: { dailyMetric: g.dailyMetric, summary: g.summary } } })],
    [
      "a bad timeStamp",
      (g) => ({
        data: { insights: { ...g, dailyMetric: [{ ...g.dailyMetric[0], timeStamp: "yesterday" }] } },
      }),
    ],
    ["a list that is not a list", (g) => ({ data: { insights: { ...g, dailyActivity: "none" } } })],
    ["data as an array", () => ({ data: [1, 2] })],
    ["a JSON array body", () => [1, 2]],
  ];
  it.each(broken)("turns %s into bad_response, with one request", async (_name, make) => {
    const c = client();
    await c.introspect(DEMO_API_KEY);
    const before = emu.requestCount();
    emu.inject({ kind: "reply", body: make(good()) }, 3);
    expect(await failure(() => c.insights(DEMO_API_KEY, WEEK))).toMatchObject({ code: "bad_response" });
    expect(emu.requestCount() - before).toBe(1);
  });

  it("keeps GraphQL error messages from a reply", async () => {
    const c = client();
    await c.introspect(DEMO_API_KEY);
    emu.inject({
      kind: "reply",
      body: { data: null, errors: [{ message: "Rule engine exploded", path: ["insights"] }] },
    });
    const err = await failure(() => c.insights(DEMO_API_KEY, WEEK));
    expect(err).toMatchObject({ code: "graphql", graphqlMessages: ["Rule engine exploded"] });
  });

  it("removes an echoed key from GraphQL error messages", async () => {
    const c = client();
    await c.introspect(DEMO_API_KEY);
    emu.inject({
      kind: "reply",
      body: { errors: [{ message: `key ${DEMO_API_KEY} may not read insights` }] },
    });
    const err = await failure(() => c.insights(DEMO_API_KEY, WEEK));
    expect(err.code).toBe("graphql");
    expect(err.message).toContain("[redacted] may not read insights");
    expect(err.message).not.toContain(DEMO_API_KEY);
  });
});

describe("secrets", () => {
  it("no API key in any error message, error details, or log line of this file", () => {
    expect(errorMessages.length).toBeGreaterThan(20);
    expect(logLines.length).toBeGreaterThan(20);
    const everything = [...errorMessages, ...logLines].join("\n");
    for (const key of ALL_KEYS) expect(everything).not.toContain(key);
    expect(everything).not.toMatch(/ApiKey [^[]/);
  });
});
