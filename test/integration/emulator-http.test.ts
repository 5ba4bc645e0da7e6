import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accountFor,
  DEMO_API_KEY,
  dailyCounts,
  type Emulator,
  rawHttp,
  SECOND_API_KEY,
  SEED_INSIGHTS_QUERY,
  SEED_INTROSPECTION_QUERY,
  seedPost,
  startEmulator,
} from "../../sandbox/analytics/index.ts";
import { QUERY_ROOT_FIELDS, wholeAccount } from "../fixtures/analytics-contract.ts";

const TODAY = "2026-11-20";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ today: () => TODAY, apiKeys: ["extra-key"] });
});
afterAll(async () => {
  await emu.close();
});

type Vars = {
  from_day?: string;
  to_day?: string;
  scannerIdsFilter?: string[];
  assetIdsFilter?: string[];
  max_rules?: number;
};

async function insights(variables: Vars, apiKey = DEMO_API_KEY) {
  const reply = await seedPost(emu.graphqlUrl, { query: SEED_INSIGHTS_QUERY, variables }, { apiKey });
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text);
}

function sums(result: any) {
  const add = (list: any[], f: string) => list.reduce((n, e) => n + e[f], 0);
  return {
    findings: add(result.dailyMetric, "findings"),
    violations: add(result.dailyMetric, "violations"),
    fixed: add(result.dailyActivity, "fixedViolations"),
    merged: add(result.dailyActivity, "mergedViolations"),
  };
}

describe("schema and introspection", () => {
  it("has the six query root fields and no mutation type", async () => {
    const reply = await seedPost(
      emu.graphqlUrl,
      { query: SEED_INTROSPECTION_QUERY },
      { apiKey: DEMO_API_KEY },
    );
    const json = JSON.parse(reply.text);
    const names = json.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    expect([...names].sort()).toEqual(QUERY_ROOT_FIELDS);
    expect(json.data.__schema.mutationType).toBeNull();
  });

  it("orders the root fields differently between two replies", async () => {
    const ask = async () =>
      JSON.parse(
        (await seedPost(emu.graphqlUrl, { query: SEED_INTROSPECTION_QUERY }, { apiKey: DEMO_API_KEY })).text,
      ).data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    const first = await ask();
    const second = await ask();
    expect(second).not.toEqual(first);
    expect([...second].sort()).toEqual([...first].sort());
  });

  it("answers the five other root fields with their documented shapes", async () => {
    const query =
      '{ projectsPosture { asOf totalProjects projectsWithViolations cleanProjects unscannedProjects } topRepositories(limit: 3) { assetId displayValue findings violations } coverage { totalAssets scannedAssets byScanner { scannerId displayValue assets } } scanMetrics(fromDay: "2026-11-01", toDay: "2026-11-03") { timeStamp scans failedScans } scanSummaryMetrics { totalScans failedScans successRate } }';
    const json = JSON.parse((await seedPost(emu.graphqlUrl, { query }, { apiKey: DEMO_API_KEY })).text);
    expect(json.errors).toBeUndefined();
    const d = json.data;
    const account = accountFor(DEMO_API_KEY)!;
    expect(d.projectsPosture.asOf).toBe(TODAY);
    expect(d.projectsPosture.totalProjects).toBe(account.assets.length);
    expect(
      d.projectsPosture.projectsWithViolations +
        d.projectsPosture.cleanProjects +
        d.projectsPosture.unscannedProjects,
    ).toBe(account.assets.length);
    expect(d.topRepositories).toHaveLength(3);
    expect(d.topRepositories[0].violations).toBeGreaterThanOrEqual(d.topRepositories[2].violations);
    expect(d.coverage.totalAssets).toBe(account.assets.length);
    expect(d.coverage.byScanner.map((s: { scannerId: string }) => s.scannerId)).toEqual(
      account.scanners.map((s) => s.value),
    );
    expect(d.scanMetrics.map((s: { timeStamp: string }) => s.timeStamp)).toEqual([
      "2026-11-01T00:00:00",
      "2026-11-02T00:00:00",
      "2026-11-03T00:00:00",
    ]);
    expect(d.scanSummaryMetrics.successRate).toBeGreaterThan(0.8);
    expect(d.scanSummaryMetrics.successRate).toBeLessThanOrEqual(1);
  });

  it("rejects a mutation, since there is no mutation type", async () => {
    const reply = await seedPost(
      emu.graphqlUrl,
      { query: "mutation { insights { summary { fixes } } }" },
      { apiKey: DEMO_API_KEY },
    );
    expect(JSON.parse(reply.text).errors[0].message).toMatch(/mutation/i);
  });
});

describe("insights", () => {
  it("gives N ascending daily entries with T00:00:00 timestamps for an N-day range", async () => {
    for (const [from, to, n] of [
      ["2026-11-01", "2026-11-01", 1],
      ["2026-10-25", "2026-11-07", 14],
      ["2025-11-20", "2026-11-20", 366],
    ] as const) {
      const r = (await insights(wholeAccount(from, to))).data.insights;
      expect(r.dailyMetric).toHaveLength(n);
      expect(r.dailyActivity).toHaveLength(n);
      const stamps = r.dailyMetric.map((e: { timeStamp: string }) => e.timeStamp);
      expect(stamps[0]).toBe(`${from}T00:00:00`);
      expect(stamps.at(-1)).toBe(`${to}T00:00:00`);
      for (const s of stamps) expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00$/);
      expect([...stamps].sort()).toEqual(stamps);
      expect(new Set(stamps).size).toBe(n);
      expect(r.dailyActivity.map((e: { timeStamp: string }) => e.timeStamp)).toEqual(stamps);
    }
  });

  it("sums the range into current and the equally long period before into previous", async () => {
    const r = (await insights(wholeAccount("2026-11-08", "2026-11-20"))).data.insights;
    const before = (await insights(wholeAccount("2026-10-26", "2026-11-07"))).data.insights;
    const now = sums(r);
    const prev = sums(before);
    expect(r.summary.findings).toEqual({ current: now.findings, previous: prev.findings });
    expect(r.summary.violations).toEqual({ current: now.violations, previous: prev.violations });
    expect(r.summary.fixes).toBe(now.fixed);
    expect(r.summary.mergedViolations).toBe(now.merged);
    expect(now.findings).toBeGreaterThan(0);
    expect(now.violations).toBeLessThanOrEqual(now.findings);
  });

  it("lists every scanner and asset of the account in filters, assets nested with UUID values", async () => {
    const r = (
      await insights({
        from_day: "2026-11-20",
        to_day: "2026-11-20",
        scannerIdsFilter: ["sast"],
        assetIdsFilter: [],
      })
    ).data.insights;
    const account = accountFor(DEMO_API_KEY)!;
    expect(r.filters.scannerId).toEqual(account.scanners);
    expect(r.filters.assetId).toEqual(account.assets);
    expect(account.assets.length).toBeGreaterThanOrEqual(30);
    for (const a of r.filters.assetId) expect(a.value).toMatch(UUID);
    expect(r.filters.assetId.map((a: { displayValue: string }) => a.displayValue)).toContain(
      "payments / api",
    );
    expect(r.filters.scannerId.map((s: { value: string }) => s.value)).toEqual([
      "sast",
      "sca",
      "secrets",
      "iac",
      "container",
    ]);
  });

  it("treats empty filter lists as no filter, like omitted ones", async () => {
    const empty = await insights(wholeAccount("2026-11-01", "2026-11-07"));
    const omitted = await insights({ from_day: "2026-11-01", to_day: "2026-11-07" });
    expect(empty.errors).toBeUndefined();
    expect(empty.data.insights).toEqual(omitted.data.insights);
    const account = accountFor(DEMO_API_KEY)!;
    expect(empty.data.insights.dailyMetric[0].findings).toBe(dailyCounts(account, "2026-11-01").findings);
  });

  it("returns per-day sums of dailyCounts for a filtered asset and scanner", async () => {
    const account = accountFor(DEMO_API_KEY)!;
    const asset = account.assets.find((a) => a.displayValue === "payments / api")!;
    const days = ["2026-11-02", "2026-11-03", "2026-11-04"];
    const scanner = account.scanners.find((s) =>
      days.some((d) => dailyCounts(account, d, [asset.value], [s.value]).findings > 0),
    )!;
    const r = (
      await insights({
        from_day: "2026-11-01",
        to_day: "2026-11-14",
        scannerIdsFilter: [scanner.value],
        assetIdsFilter: [asset.value],
      })
    ).data.insights;
    const all = (await insights({ from_day: "2026-11-01", to_day: "2026-11-14" })).data.insights;
    r.dailyMetric.forEach((e: any, i: number) => {
      const day = e.timeStamp.slice(0, 10);
      const want = dailyCounts(account, day, [asset.value], [scanner.value]);
      expect(e).toEqual({
        timeStamp: `${day}T00:00:00`,
        findings: want.findings,
        violations: want.violations,
      });
      expect(r.dailyActivity[i]).toEqual({
        timeStamp: `${day}T00:00:00`,
        fixedViolations: want.fixedViolations,
        mergedViolations: want.mergedViolations,
      });
    });
    expect(sums(r).findings).toBeGreaterThan(0);
    expect(sums(r).findings).toBeLessThan(sums(all).findings);
  });

  it("yields zeros, not an error, for asset or scanner ids the account does not have", async () => {
    const json = await insights({
      from_day: "2026-11-01",
      to_day: "2026-11-03",
      scannerIdsFilter: [],
      assetIdsFilter: ["00000000-0000-4000-8000-000000000000"],
    });
    expect(json.errors).toBeUndefined();
    expect(json.data.insights.dailyMetric.map((e: any) => e.findings)).toEqual([0, 0, 0]);
    expect(json.data.insights.summary.findings).toEqual({ previous: 0, current: 0 });
  });

  it("defaults toDay to today (UTC, injected clock) and fromDay to toDay − 6", async () => {
    const stamps = async (v: Vars) =>
      (await insights(v)).data.insights.dailyMetric.map((e: { timeStamp: string }) =>
        e.timeStamp.slice(0, 10),
      );
    const none = await stamps({});
    expect(none).toHaveLength(7);
    expect(none[0]).toBe("2026-11-14");
    expect(none.at(-1)).toBe(TODAY);
    const onlyTo = await stamps({ to_day: "2026-03-02" });
    expect([onlyTo[0], onlyTo.at(-1), onlyTo.length]).toEqual(["2026-02-24", "2026-03-02", 7]);
    const onlyFrom = await stamps({ from_day: "2026-11-10" });
    expect([onlyFrom[0], onlyFrom.at(-1), onlyFrom.length]).toEqual(["2026-11-10", TODAY, 11]);
  });

  it("gives GraphQL errors for bad dates, inverted ranges and ranges over 366 days", async () => {
    const cases: Vars[] = [
      { from_day: "2026-02-30", to_day: "2026-03-05" },
      { from_day: "yesterday", to_day: "2026-03-05" },
      { from_day: "2026-03-01", to_day: "2026-3-5" },
      { from_day: "2026-03-10", to_day: "2026-03-01" },
      { from_day: "2025-01-01", to_day: "2026-01-02" },
    ];
    for (const variables of cases) {
      const json = await insights({ ...variables, scannerIdsFilter: [], assetIdsFilter: [] });
      expect(json.errors?.length, JSON.stringify(variables)).toBeGreaterThan(0);
      expect(json.errors[0].extensions.code).toBe("BAD_USER_INPUT");
      expect(json.data?.insights ?? null).toBeNull();
    }
    const ok = await insights({ from_day: "2025-01-01", to_day: "2026-01-01" });
    expect(ok.data.insights.dailyMetric).toHaveLength(366);
  });

  it("rejects a bad Date literal in the document too", async () => {
    const query = '{ insights(fromDay: "2026-02-30", toDay: "2026-03-01") { summary { fixes } } }';
    const json = JSON.parse((await seedPost(emu.graphqlUrl, { query }, { apiKey: DEMO_API_KEY })).text);
    expect(json.errors[0].message).toMatch(/2026-02-30/);
    expect(json.data).toBeUndefined();
  });

  it("gives different accounts different data", async () => {
    const v = wholeAccount("2026-11-01", "2026-11-14");
    const [demo, second, extra] = await Promise.all([
      insights(v),
      insights(v, SECOND_API_KEY),
      insights(v, "extra-key"),
    ]);
    const names = (r: any) =>
      r.data.insights.filters.assetId.map((a: { displayValue: string }) => a.displayValue);
    expect(names(second)).not.toEqual(names(demo));
    expect(names(second)).toContain("logistics / tracking-api");
    expect(names(extra)).not.toEqual(names(demo));
    expect(second.data.insights.dailyMetric).not.toEqual(demo.data.insights.dailyMetric);
    expect(extra.data.insights.summary).not.toEqual(demo.data.insights.summary);
    const ids = new Set(demo.data.insights.filters.assetId.map((a: { value: string }) => a.value));
    expect(second.data.insights.filters.assetId.some((a: { value: string }) => ids.has(a.value))).toBe(false);
  });
});

describe("authentication", () => {
  const cases: [string, string | null][] = [
    ["missing header", null],
    ["Bearer scheme", `Bearer ${DEMO_API_KEY}`],
    ["two spaces", `ApiKey  ${DEMO_API_KEY}`],
    ["lower-case scheme", `apikey ${DEMO_API_KEY}`],
    ["unknown key", "ApiKey not-a-known-key"],
    ["scheme only", "ApiKey"],
  ];
  for (const [name, authorization] of cases) {
    it(`answers 401 with a JSON errors body for ${name}`, async () => {
      const reply = await seedPost(emu.graphqlUrl, { query: SEED_INTROSPECTION_QUERY }, { authorization });
      expect(reply.status).toBe(401);
      expect(String(reply.headers["content-type"])).toMatch(/application\/json/);
      const json = JSON.parse(reply.text);
      expect(json.errors[0].message).toEqual(expect.any(String));
      expect(json.errors[0].extensions.code).toBe("UNAUTHENTICATED");
      expect(json.data).toBeUndefined();
      expect(reply.text).not.toContain(DEMO_API_KEY);
    });
  }

  it("accepts a key added through options", async () => {
    const reply = await seedPost(
      emu.graphqlUrl,
      { query: SEED_INTROSPECTION_QUERY },
      { apiKey: "extra-key" },
    );
    expect(reply.status).toBe(200);
  });
});

describe("HTTP surface", () => {
  it("serves /config.js with the GraphQL URL the client discovers", async () => {
    const reply = await rawHttp(emu.configUrl);
    expect(reply.status).toBe(200);
    expect(String(reply.headers["content-type"])).toMatch(/javascript/);
    expect(reply.text.startsWith("window.__APP_CONFIG__ = ")).toBe(true);
    const urls = reply.text.match(/https?:\/\/[^"']+/g) ?? [];
    const graphqlUrls = urls.filter((u) => u.endsWith("graphql"));
    expect(graphqlUrls).toEqual([emu.graphqlUrl]);
    expect(emu.graphqlUrl).toBe(`${emu.appUrl}/analytics/graphql`);
    const config = JSON.parse(reply.text.replace("window.__APP_CONFIG__ = ", "").replace(/;\s*$/, ""));
    expect(config).toEqual({ apiBaseUrl: emu.appUrl, graphqlUrl: emu.graphqlUrl });
  });

  it("answers 404 for unknown paths and 405 for non-POST on the GraphQL path", async () => {
    expect((await rawHttp(`${emu.appUrl}/nope`)).status).toBe(404);
    expect((await rawHttp(`${emu.appUrl}/graphql`, { method: "POST", body: "{}" })).status).toBe(404);
    const get = await rawHttp(`${emu.graphqlUrl}?query=%7B__typename%7D`, {
      headers: { Authorization: `ApiKey ${DEMO_API_KEY}` },
    });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(JSON.parse(get.text).errors).toHaveLength(1);
  });

  it("records the last request and counts GraphQL POSTs", async () => {
    const before = emu.requestCount();
    await seedPost(
      emu.graphqlUrl,
      { query: SEED_INSIGHTS_QUERY, variables: { from_day: "2026-11-01" } },
      { apiKey: DEMO_API_KEY },
    );
    expect(emu.requestCount()).toBe(before + 1);
    const last = emu.lastRequest()!;
    expect(last.headers.authorization).toBe(`ApiKey ${DEMO_API_KEY}`);
    expect(last.headers["content-length"]).toBe(String(Buffer.byteLength(last.body)));
    expect(last.body).not.toContain("\n");
    expect(JSON.parse(last.body).variables).toEqual({ from_day: "2026-11-01" });
  });

  it("can serve a schema without Insights.filters", async () => {
    const bare = await startEmulator({ today: () => TODAY, insightsFilters: false });
    try {
      const withFilters = JSON.parse(
        (
          await seedPost(
            bare.graphqlUrl,
            { query: SEED_INSIGHTS_QUERY, variables: {} },
            { apiKey: DEMO_API_KEY },
          )
        ).text,
      );
      expect(withFilters.errors[0].message).toMatch(/filters/);
      const query = SEED_INSIGHTS_QUERY.replace(/ filters \{ scannerId .*\} \} \} \}$/, " } }");
      const without = JSON.parse(
        (await seedPost(bare.graphqlUrl, { query, variables: {} }, { apiKey: DEMO_API_KEY })).text,
      );
      expect(without.errors).toBeUndefined();
      expect(without.data.insights.dailyMetric).toHaveLength(7);
    } finally {
      await bare.close();
    }
  });
});
