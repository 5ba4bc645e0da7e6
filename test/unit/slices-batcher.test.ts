import { describe, expect, it } from "vitest";
import { AnalyticsError } from "../../src/analytics/analytics-errors.ts";
import type { InsightsQuery, InsightsResult, SliceQuery, SliceSeries } from "../../src/analytics/types.ts";
import type { SlicesSource } from "../../src/digests/drivers-fetch.ts";
import { type BatchSource, batchSlices, sharedBatcher } from "../../src/digests/slices-batcher.ts";

/**
 * The analytics side of the batcher, recorded: every request it received (account and queries),
 * answering each query with a series that names it, or failing as told.
 */
function service(fail?: (queries: readonly SliceQuery[]) => unknown) {
  const requests: { apiKey: string; queries: readonly SliceQuery[] }[] = [];
  const source: SlicesSource = {
    async slices(apiKey, queries) {
      requests.push({ apiKey, queries });
      const err = fail?.(queries);
      if (err) throw err;
      return queries.map(
        (q): SliceSeries => ({
          dailyMetric: [
            { timeStamp: `${q.fromDay}T00:00:00`, violations: q.assetIds?.length ?? 0, findings: 0 },
          ],
          dailyActivity: [],
        }),
      );
    },
  };
  return { source, requests };
}

const q = (day: string, assetIds: string[] = []): SliceQuery => ({
  fromDay: day,
  toDay: day,
  assetIds,
  scannerIds: [],
});
const dayOf = (s: SliceSeries) => s.dailyMetric[0]?.timeStamp.slice(0, 10);

describe("slices of one account asked in one turn", () => {
  it("go out as one request per account, each asker getting its own series in its order", async () => {
    const { source, requests } = service();
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const [a, b, c] = await Promise.all([
      batched.slices("key-1", [q("2026-11-01"), q("2026-11-02")]),
      batched.slices("key-2", [q("2026-11-03")]),
      batched.slices("key-1", [q("2026-11-04"), q("2026-11-05"), q("2026-11-06")]),
    ]);
    expect(requests.map((r) => [r.apiKey, r.queries.length])).toEqual([
      ["key-1", 5],
      ["key-2", 1],
    ]);
    expect(a?.map(dayOf)).toEqual(["2026-11-01", "2026-11-02"]);
    expect(b?.map(dayOf)).toEqual(["2026-11-03"]);
    expect(c?.map(dayOf)).toEqual(["2026-11-04", "2026-11-05", "2026-11-06"]);
  });

  it("asked in different turns, go out apart", async () => {
    const { source, requests } = service();
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    await batched.slices("key-1", [q("2026-11-01")]);
    await batched.slices("key-1", [q("2026-11-02")]);
    expect(requests.length).toBe(2);
  });

  it("keep a request within its fields and asset ids, counting a list asked twice once", async () => {
    const { source, requests } = service();
    const batched = batchSlices(source, { batchSize: 4, maxIds: 5 });
    const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    await Promise.all([
      batched.slices("k", [q("2026-11-01"), q("2026-11-02"), q("2026-11-03")]),
      // Two more fields would pass 4: a request of its own.
      batched.slices("k", [q("2026-11-04"), q("2026-11-05")]),
      // Three ids, then the same three again (free), then three more would pass 5.
      batched.slices("k", [q("2026-11-06", ids(3, "a"))]),
      batched.slices("k", [q("2026-11-07", ids(3, "b"))]),
    ]);
    expect(requests.map((r) => r.queries.map((x) => x.fromDay.slice(8)))).toEqual([
      ["01", "02", "03"],
      ["04", "05", "06"],
      ["07"],
    ]);
    const seen = service();
    const again = batchSlices(seen.source, { batchSize: 4, maxIds: 5 });
    await Promise.all([
      again.slices("k", [q("2026-11-01", ids(3, "a"))]),
      again.slices("k", [q("2026-11-02", ids(3, "a"))]),
    ]);
    expect(seen.requests.length).toBe(1);
  });

  it("as many as a request holds go straight out", async () => {
    const { source, requests } = service();
    const batched = batchSlices(source, { batchSize: 2, maxIds: 100 });
    await Promise.all([
      batched.slices("k", [q("2026-11-01"), q("2026-11-02")]),
      batched.slices("k", [q("2026-11-03")]),
    ]);
    expect(requests.map((r) => r.queries.length)).toEqual([2, 1]);
  });

  it("a refused field fails only the asker it belongs to, named in its own numbering; the others ask again alone", async () => {
    const refused = "2026-11-03";
    const { source, requests } = service((queries) => {
      const i = queries.findIndex((x) => x.fromDay === refused);
      return i < 0
        ? undefined
        : new AnalyticsError("graphql", "The analytics service refused the query", {
            failedFields: [`s${i}`],
            graphqlMessages: ["unknown scanner"],
          });
    });
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const [a, b] = await Promise.allSettled([
      batched.slices("k", [q("2026-11-01"), q("2026-11-02")]),
      batched.slices("k", [q("2026-11-04"), q(refused)]),
    ]);
    expect(a.status).toBe("fulfilled");
    if (a.status === "fulfilled") expect(a.value.map(dayOf)).toEqual(["2026-11-01", "2026-11-02"]);
    expect(b.status).toBe("rejected");
    if (b.status === "rejected") {
      const err = b.reason as AnalyticsError;
      expect(err.code).toBe("graphql");
      // Its second query: s1 of its own, s3 of the shared request.
      expect(err.details.failedFields).toEqual(["s1"]);
      expect(err.graphqlMessages).toEqual(["unknown scanner"]);
    }
    // The shared request, then the first asker's alone; the refused asker is not asked again.
    expect(requests.map((r) => r.queries.length)).toEqual([4, 2]);
  });

  it("a failure of the whole request (a timeout, a 5xx) is every asker's, and nobody asks again", async () => {
    const down = new AnalyticsError("unavailable", "The analytics service did not answer in time.");
    const { source, requests } = service(() => down);
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const settled = await Promise.allSettled([
      batched.slices("k", [q("2026-11-01")]),
      batched.slices("k", [q("2026-11-02")]),
    ]);
    expect(settled.map((s) => (s.status === "rejected" ? s.reason : null))).toEqual([down, down]);
    expect(requests.length).toBe(1);
  });

  it("every digest service over one client asks through the same batcher (a delivery has a service of its own)", async () => {
    const { source, requests } = service();
    const limits = { batchSize: 32, maxIds: 100 };
    // Two services' computations, each with its own handle on the client's batcher.
    const a = sharedBatcher(source, limits);
    const b = sharedBatcher(source, limits);
    await Promise.all([a.slices("k", [q("2026-11-01")]), b.slices("k", [q("2026-11-02")])]);
    expect(requests.length).toBe(1);
    // Other bounds are another batcher; another client, another one again.
    expect(sharedBatcher(source, { batchSize: 8, maxIds: 100 })).not.toBe(a);
    expect(sharedBatcher(service().source, limits)).not.toBe(a);
  });
});

/** A digest's reply that names its question's first day (its summary's fixes count its asset ids). */
const replyTo = (x: InsightsQuery): InsightsResult => ({
  dailyMetric: [{ timeStamp: `${x.fromDay}T00:00:00`, violations: 0, findings: 0 }],
  dailyActivity: [],
  summary: {
    findings: { previous: 0, current: 0 },
    violations: { previous: 0, current: 0 },
    fixes: x.assetIds?.length ?? 0,
    mergedViolations: 0,
  },
});

/** The analytics side with digest questions too: every request recorded by kind. */
function serviceWithDigests(fail?: (digest: boolean, queries: readonly SliceQuery[]) => unknown) {
  const base = service((queries) => fail?.(false, queries));
  const kinds: string[] = [];
  const source: BatchSource = {
    slices(apiKey, queries) {
      kinds.push(`slices ${queries.length}`);
      return base.source.slices(apiKey, queries);
    },
    async insights(_apiKey, x) {
      kinds.push("digest");
      const err = fail?.(true, []);
      if (err) throw err;
      return replyTo(x);
    },
    async insightsWithSlices(_apiKey, x, _opts, queries) {
      kinds.push(`digest + slices ${queries.length}`);
      const err = fail?.(true, queries);
      if (err) throw err;
      return {
        insights: replyTo(x),
        slices: queries.map((y) => ({
          dailyMetric: [{ timeStamp: `${y.fromDay}T00:00:00`, violations: 0, findings: 0 }],
          dailyActivity: [],
        })),
      };
    },
  };
  return { source, kinds };
}

const question = (day: string): InsightsQuery => ({ fromDay: day, toDay: day, assetIds: [], scannerIds: [] });

describe("a digest's own question asked in the turn its slices are", () => {
  it("rides with them: one request, each asker its own answer", async () => {
    const { source, kinds } = serviceWithDigests();
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const [digest, a, b] = await Promise.all([
      batched.insights("k", question("2026-11-09")),
      batched.slices("k", [q("2026-11-01"), q("2026-11-02")]),
      batched.slices("k", [q("2026-11-03")]),
    ]);
    expect(kinds).toEqual(["digest + slices 3"]);
    expect(digest.dailyMetric[0]?.timeStamp).toBe("2026-11-09T00:00:00");
    expect(a.map(dayOf)).toEqual(["2026-11-01", "2026-11-02"]);
    expect(b.map(dayOf)).toEqual(["2026-11-03"]);
  });

  it("goes alone when no slices are asked with it, or when another digest's question rides already", async () => {
    const { source, kinds } = serviceWithDigests();
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const [first, second] = await Promise.all([
      batched.insights("k", question("2026-11-09")),
      batched.insights("k", question("2026-11-10")),
      batched.slices("k", [q("2026-11-01")]),
    ]);
    expect(first.dailyMetric[0]?.timeStamp).toBe("2026-11-09T00:00:00");
    expect(second.dailyMetric[0]?.timeStamp).toBe("2026-11-10T00:00:00");
    expect(kinds.sort()).toEqual(["digest", "digest + slices 1"]);
    kinds.length = 0;
    await batched.insights("k", question("2026-11-11"));
    expect(kinds).toEqual(["digest"]);
    // A source that cannot carry both (a client without the combined call): apart, as before.
    const plain = service();
    const apart = batchSlices(
      { ...plain.source, insights: async (_k, x) => replyTo(x) },
      { batchSize: 32, maxIds: 100 },
    );
    const [d] = await Promise.all([
      apart.insights("k", question("2026-11-12")),
      apart.slices("k", [q("2026-11-01")]),
    ]);
    expect(d.dailyMetric[0]?.timeStamp).toBe("2026-11-12T00:00:00");
    expect(plain.requests.length).toBe(1);
  });

  it("refused itself, fails alone (the slices ask again); a refused slice fails its asker, and the digest asks again alone", async () => {
    /** A question and one slice asked together of a service whose combined request fails with `err`. */
    const together = async (err: unknown) => {
      const svc = serviceWithDigests((digest, queries) => (digest && queries.length > 0 ? err : undefined));
      const batched = batchSlices(svc.source, { batchSize: 32, maxIds: 100 });
      const settled = await Promise.allSettled([
        batched.insights("k", question("2026-11-09")),
        batched.slices("k", [q("2026-11-01")]),
      ]);
      return { statuses: settled.map((x) => x.status), kinds: svc.kinds };
    };
    const refusedDigest = await together(
      new AnalyticsError("graphql", "refused", { failedFields: ["digest"] }),
    );
    expect(refusedDigest.statuses).toEqual(["rejected", "fulfilled"]);
    expect(refusedDigest.kinds).toEqual(["digest + slices 1", "slices 1"]);
    const refusedSlice = await together(new AnalyticsError("graphql", "refused", { failedFields: ["s0"] }));
    expect(refusedSlice.statuses).toEqual(["fulfilled", "rejected"]);
    expect(refusedSlice.kinds).toEqual(["digest + slices 1", "digest"]);
    // The whole request down: everyone's failure, nobody asks again.
    const down = await together(
      new AnalyticsError("unavailable", "The analytics service did not answer in time."),
    );
    expect(down.statuses).toEqual(["rejected", "rejected"]);
    expect(down.kinds).toEqual(["digest + slices 1"]);
  });

  it("expected together: whichever of the question and the slices comes first waits for the other across turns, and goes alone once released", async () => {
    const { source, kinds } = serviceWithDigests();
    const batched = batchSlices(source, { batchSize: 32, maxIds: 100 });
    const release = batched.expect("k");
    const digest = batched.insights("k", question("2026-11-09"));
    // Turns pass (the slices' own reads) before they are asked: the question still waits.
    await new Promise((r) => setTimeout(r, 20));
    expect(kinds).toEqual([]);
    const slices = batched.slices("k", [q("2026-11-01")]);
    release();
    await Promise.all([digest, slices]);
    expect(kinds).toEqual(["digest + slices 1"]);
    kinds.length = 0;
    const done = batched.expect("k");
    const lone = batched.insights("k", question("2026-11-10"));
    await new Promise((r) => setTimeout(r, 20));
    expect(kinds).toEqual([]);
    done();
    done();
    await lone;
    expect(kinds).toEqual(["digest"]);
    // The slices first this time: they wait for the question, then go with it.
    kinds.length = 0;
    const pair = batched.expect("k");
    const early = batched.slices("k", [q("2026-11-02")]);
    await new Promise((r) => setTimeout(r, 20));
    expect(kinds).toEqual([]);
    const late = batched.insights("k", question("2026-11-12"));
    await Promise.all([early, late]);
    pair();
    expect(kinds).toEqual(["digest + slices 1"]);
    // Another account's question never waits on this one's expectation.
    const other = batched.expect("k");
    await batched.insights("k2", question("2026-11-11"));
    other();
  });
});
