import { describe, expect, it } from "vitest";
import { AnalyticsError, createAnalyticsClient } from "../../src/analytics/index.ts";
import { slicesRequest } from "../../src/analytics/input.ts";
import { parseSlicesData } from "../../src/analytics/schema.ts";
import type { SliceQuery, SliceSeries } from "../../src/analytics/types.ts";
import {
  boundedStopOnFailure,
  fetchParts,
  packParts,
  type SlicePart,
  type SlicesSource,
} from "../../src/digests/drivers-fetch.ts";

/* The drivers' batched slices: the document and variables, the reply check, failures per alias. */

const UUID_A = "6f1c2b7e-0d4a-4c5e-9a3b-1f2e3d4c5b6a";
const UUID_B = "0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d";
const day = (d: string) => `${d}T00:00:00`;
const series = (days: string[]): SliceSeries => ({
  dailyMetric: days.map((d) => ({ timeStamp: day(d), violations: 1, findings: 2 })),
  dailyActivity: days.map((d) => ({ timeStamp: day(d), fixedViolations: 3, mergedViolations: 4 })),
});
/** A slice as the service sends it: under the document's one-letter aliases. */
const wire = (s: SliceSeries) => ({
  m: s.dailyMetric.map((e) => ({ t: e.timeStamp, v: e.violations, f: e.findings })),
  a: s.dailyActivity.map((e) => ({ t: e.timeStamp, x: e.fixedViolations, g: e.mergedViolations })),
});

describe("a slices request", () => {
  it("aliases every slice, sends days and id lists once each as variables, selects the daily lists only", () => {
    const w = { fromDay: "2026-10-01", toDay: "2026-11-20" };
    const r = slicesRequest([
      { ...w, scannerIds: [], assetIds: [UUID_A, UUID_B] },
      { ...w, scannerIds: ["sast"], assetIds: [UUID_A, UUID_B] },
      { ...w, scannerIds: ["sca"], assetIds: [UUID_A, UUID_B] },
      { fromDay: "2025-11-20", toDay: "2026-09-30", scannerIds: ["sca"] },
    ]);
    expect(r.aliases).toEqual(["s0", "s1", "s2", "s3"]);
    expect(r.variables).toEqual({
      d0: "2026-10-01",
      d1: "2026-11-20",
      v0: [],
      v1: [UUID_A, UUID_B],
      v2: ["sast"],
      v3: ["sca"],
      d2: "2025-11-20",
      d3: "2026-09-30",
    });
    expect(r.document).toBe(
      "query DriverSlices($d0: Date, $d1: Date, $d2: Date, $d3: Date, $v0: [String!], $v1: [String!], $v2: [String!], $v3: [String!]) { " +
        [
          "s0: insights(fromDay: $d0, toDay: $d1, filters: {scannerIds: $v0, assetIds: $v1})",
          "s1: insights(fromDay: $d0, toDay: $d1, filters: {scannerIds: $v2, assetIds: $v1})",
          "s2: insights(fromDay: $d0, toDay: $d1, filters: {scannerIds: $v3, assetIds: $v1})",
          "s3: insights(fromDay: $d2, toDay: $d3, filters: {scannerIds: $v3, assetIds: $v0})",
        ]
          .map(
            (f) =>
              `${f} { m: dailyMetric { t: timeStamp v: violations f: findings } a: dailyActivity { t: timeStamp x: fixedViolations g: mergedViolations } }`,
          )
          .join(" ") +
        " }",
    );
  });

  it("refuses bad days, reversed ranges, empty ids and an empty batch before any I/O", () => {
    const bad: SliceQuery[][] = [
      [{ fromDay: "2026-02-30", toDay: "2026-03-01" }],
      [{ fromDay: "2026-03-02", toDay: "2026-03-01" }],
      [{ fromDay: "2026-03-01", toDay: "2026-03-02", assetIds: [""] }],
      [],
    ];
    for (const queries of bad) expect(() => slicesRequest(queries)).toThrow(AnalyticsError);
  });

  it("checks every alias of the reply, accepts extra fields, and names what is wrong", () => {
    const ok = { s0: wire(series(["2026-11-01"])), s1: { ...wire(series(["2026-11-02"])), extra: true } };
    const parsed = parseSlicesData(ok, ["s0", "s1"]);
    expect(parsed[0]).toEqual(series(["2026-11-01"]));
    expect(parsed[1]?.dailyActivity[0]).toEqual({
      timeStamp: "2026-11-02T00:00:00",
      fixedViolations: 3,
      mergedViolations: 4,
    });
    expect(() => parseSlicesData({ s0: ok.s0 }, ["s0", "s1"])).toThrow(/s1/);
    const late = { s0: { ...wire(series([])), m: [{ t: "2026-11-01T05:00:00", v: 1, f: 1 }] } };
    expect(() => parseSlicesData(late, ["s0"])).toThrow(/s0\.m\.0\.t/);
    const negative = { s0: { ...wire(series([])), m: [{ t: day("2026-11-01"), v: -1, f: 1 }] } };
    expect(() => parseSlicesData(negative, ["s0"])).toThrow(AnalyticsError);
  });

  it("maps a GraphQL error on one alias to that alias, with the sanitized message", async () => {
    const KEY = "unit-key-slices-0123";
    const fetchImpl: typeof fetch = async () =>
      new Response(
        JSON.stringify({
          data: { s0: wire(series(["2026-11-01"])), s1: null },
          errors: [
            { message: `range too long for ${KEY}`, path: ["s1"] },
            { message: "odd", path: ["{bad}"] },
          ],
        }),
        { status: 200, headers: { "content-type": "application/json" } },
      );
    const client = createAnalyticsClient({
      graphqlUrl: "https://api.example.com/analytics/graphql",
      fetch: fetchImpl,
    });
    const w = { fromDay: "2026-11-01", toDay: "2026-11-01" };
    const err = await client.slices(KEY, [w, w]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnalyticsError);
    expect(err).toMatchObject({ code: "graphql", details: { failedFields: ["s1"] } });
    expect(String((err as Error).message)).not.toContain(KEY);
  });
});

const part = (label: string, assetIds: string[] = []): SlicePart => ({
  label,
  window: { fromDay: "2026-11-01", toDay: "2026-11-03" },
  assetIds,
  scannerIds: [],
});

describe("the drivers' slices on the wire", () => {
  it("pack parts into requests by field count and by the asset ids they carry (a shared list counted once)", () => {
    const ids = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const parts = [
      part("a", ids(3, "x")),
      part("b", ids(3, "x")),
      part("c", ids(4, "y")),
      part("d"),
      part("e"),
    ];
    expect(packParts(parts, { batchSize: 32, maxIds: 100 })).toEqual([[0, 1, 2, 3, 4]]);
    expect(packParts(parts, { batchSize: 2, maxIds: 100 })).toEqual([[0, 1], [2, 3], [4]]);
    expect(packParts(parts, { batchSize: 32, maxIds: 6 })).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
    // A part larger than the bound still goes, alone.
    expect(packParts([part("big", ids(10, "z")), part("f")], { batchSize: 32, maxIds: 5 })).toEqual([
      [0],
      [1],
    ]);
  });

  it("start no request after one failed", async () => {
    const started: number[] = [];
    const tasks = Array.from({ length: 10 }, (_, i) => async () => {
      started.push(i);
      await new Promise((r) => setTimeout(r, 5));
      if (i === 2) throw new Error("boom");
      return i;
    });
    await expect(boundedStopOnFailure(tasks, 2)).rejects.toThrow("boom");
    await new Promise((r) => setTimeout(r, 30));
    // Lanes 0 and 1, then 2 and 3 started beside it; nothing after the failure.
    expect(started).toEqual([0, 1, 2, 3]);
    await expect(boundedStopOnFailure(tasks.slice(3, 6), 2)).resolves.toEqual([3, 4, 5]);
  });

  it("give each part its repaired points, and name the slices a refused field stood for", async () => {
    const asked: SliceQuery[][] = [];
    const source: SlicesSource = {
      async slices(_key, queries) {
        asked.push([...queries]);
        // The reply leaves a day out of the first slice: it becomes null, never zero.
        return queries.map((_, i) =>
          series(i === 0 ? ["2026-11-01", "2026-11-03"] : ["2026-11-01", "2026-11-02", "2026-11-03"]),
        );
      },
    };
    const points = await fetchParts(source, "k", [part("a"), part("b")], {
      batchSize: 32,
      maxIds: 100,
      concurrency: 2,
    });
    expect(asked).toHaveLength(1);
    expect(points[0]?.map((p) => p.findings)).toEqual([2, null, 2]);
    expect(points[1]?.map((p) => p.fixed)).toEqual([3, 3, 3]);
    const failing: SlicesSource = {
      slices: async () => {
        throw new AnalyticsError("graphql", "Analytics service answered with errors: nope", {
          failedFields: ["s1"],
        });
      },
    };
    await expect(
      fetchParts(failing, "k", [part("payments/*"), part("SCA (dependencies)")], {
        batchSize: 32,
        maxIds: 100,
        concurrency: 1,
      }),
    ).rejects.toMatchObject({ code: "graphql", details: { slices: ["SCA (dependencies)"] } });
  });
});
