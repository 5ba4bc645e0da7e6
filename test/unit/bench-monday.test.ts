import { describe, expect, it } from "vitest";
import type { BenchResults } from "../bench/main.ts";
import { benchCommand } from "../bench/markdown.ts";
import { mondayTargets } from "../bench/monday/report.ts";
import {
  channelCheck,
  floorsOf,
  type MondayResult,
  type MondayRun,
  workspaceFirsts,
} from "../bench/monday/section.ts";
import { zipfSizes } from "../bench/monday/world.ts";
import { planFor } from "../bench/plan.ts";
import { keyFamily } from "../bench/storm/memory.ts";

/** The Monday section's pure parts: the install's shape, what it reads off a slot, and its verdicts. */

describe("zipfSizes: a large install's workspaces", () => {
  it("100,000 subscriptions over 5,000 workspaces: a few with thousands, most with a handful", () => {
    const sizes = zipfSizes(100_000, 5_000);
    expect(sizes).toHaveLength(5_000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(sizes.every((s, i) => s >= 1 && (i === 0 || s <= (sizes[i - 1] ?? 0)))).toBe(true);
    const thousands = sizes.filter((s) => s >= 1_000).length;
    expect(thousands).toBeGreaterThanOrEqual(3);
    expect(thousands).toBeLessThanOrEqual(20);
    expect(sizes[0]).toBeGreaterThan(3_000);
    expect(sizes[0]).toBeLessThan(6_000);
    // Half the workspaces hold a handful.
    expect(sizes[2_500]).toBeLessThanOrEqual(8);
  });

  it("adds up at any size, and refuses more workspaces than subscriptions", () => {
    for (const [n, w] of [
      [2_000, 100],
      [10_000, 500],
      [7, 7],
      [101, 5],
    ] as const)
      expect(zipfSizes(n, w).reduce((a, b) => a + b, 0)).toBe(n);
    expect(zipfSizes(7, 7)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(() => zipfSizes(3, 4)).toThrow(RangeError);
  });
});

describe("keyFamily: Redis keys by what they hold", () => {
  it.each([
    ["insights:{w:TB0000A}:-:sub:0123abcdEF", "insights:{w}:sub:*"],
    ["insights:{w:TB0000A}:E12345:claims:20261127T090000Z", "insights:{w}:claims:*"],
    ["insights:{w:TB0000A}:-:idx", "insights:{w}:idx"],
    ["insights:drivers:{a:Zm9vYmFyYmF6cXV4cXV1eA}:r:7d:20261127", "insights:drivers:{a}:r:*"],
    ["{insights}:deliveries:d.-.TB0000A.0123abcd.20261127T090000Z", "{insights}:deliveries:*"],
    ["{insights}:deliveries:events", "{insights}:deliveries:events"],
    ["{insights}:deliveries:repeat:slot.123:1796539380000", "{insights}:deliveries:repeat:*"],
  ])("%s is %s", (key, family) => {
    expect(keyFamily(key)).toBe(family);
  });

  it("an id of letters alone is told from a word by how many keys it is in", () => {
    const keys = [
      "insights:{w:TB0000A}:-:sub:sohcaibo",
      "insights:{w:TB0000B}:-:sub:xqnvrmnw",
      "insights:{w:TB0000A}:-:ireq:abcdefgh",
      "insights:{w:TB0000A}:-:ireq:abcdefgh:sent",
      "insights:{w:TB0000B}:-:ireq:zyxwvuts:sent",
      "insights:{w:TB0000C}:-:ireq:qwertyui:sent",
      ...["A", "B", "C"].map((t) => `insights:{w:TB0000${t}}:-:insights:filter-lists`),
    ];
    const seen = new Map<string, number>();
    for (const key of keys) for (const part of key.split(":")) seen.set(part, (seen.get(part) ?? 0) + 1);
    expect(keys.map((k) => keyFamily(k, seen))).toEqual([
      "insights:{w}:sub:*",
      "insights:{w}:sub:*",
      "insights:{w}:ireq:*",
      "insights:{w}:ireq:*:sent",
      "insights:{w}:ireq:*:sent",
      "insights:{w}:ireq:*:sent",
      "insights:{w}:insights:filter-lists",
      "insights:{w}:insights:filter-lists",
      "insights:{w}:insights:filter-lists",
    ]);
  });
});

describe("what the section reads off a slot", () => {
  const fired = 1_000_000;

  it("each workspace's first digest: spread, the last one's size, and workspaces never reached", () => {
    const teamOfSub = new Map([
      ["a1", "TA"],
      ["a2", "TA"],
      ["b1", "TB"],
      ["c1", "TC"],
    ]);
    const sizes = new Map([
      ["TA", 2],
      ["TB", 1],
      ["TC", 1],
      ["TD", 5],
    ]);
    const posts = {
      "a1/p": fired + 4_000,
      "a2/p": fired + 900,
      "b1/p": fired + 31_000,
      "c1/p": fired + 2_000,
      // Not a subscription of the world (a subscription made during the slot): not counted.
      "zz/p": fired + 1,
    };
    expect(workspaceFirsts(posts, teamOfSub, sizes, fired)).toEqual({
      workspaces: 4,
      reached: 3,
      minMs: 900,
      p50Ms: 2_000,
      p90Ms: 31_000,
      maxMs: 31_000,
      over30s: 1,
      lastSize: 1,
    });
  });

  it("posts per channel against its subscriptions: missing and extra counted apart", () => {
    const expected = new Map([
      ["C1", 2],
      ["C2", 1],
      ["C3", 3],
    ]);
    expect(channelCheck(expected, { C1: 2, C2: 2, C3: 1, C9: 4 })).toEqual({
      channels: 3,
      short: 1,
      lost: 2,
      duplicated: 1,
    });
  });

  it("floors: the largest workspace at 600 posts a minute, and each workspace's first member", () => {
    expect(floorsOf([4_171, 25, 3])).toEqual({ largestWorkspaceS: 417.1, firstRunJobs: 3 });
    expect(floorsOf([4_171, 0, 3])).toEqual({ largestWorkspaceS: 417.1, firstRunJobs: 2 });
  });
});

describe("the Monday targets", () => {
  const run = (o: Partial<MondayRun> = {}): MondayRun =>
    ({
      subscriptions: 2_000,
      workspaces: 100,
      accounts: 20,
      workers: 2,
      sizes: { largest: 180, median: 11, smallest: 5, overThousand: 0 },
      mixFrom: { people: 500, workspaces: 50 },
      floors: { largestWorkspaceS: 18, firstRunJobs: 950 },
      storm: {
        subscriptions: 2_000,
        timeToAllMs: 40_000,
        timeToShareMs: { p50: 10_000, p90: 30_000, p99: 38_000 },
        digestsPerSec: 50,
        delivered: 2_000,
        duplicates: 0,
        lost: 0,
        failureNotices: 0,
        failedJobs: 0,
        rateLimited429: 0,
        slackErrors: {},
        workerStartMs: [900, 950],
        workerPeakRssMb: 300,
        timedOut: false,
        createMs: 500,
        setupOverran: false,
        firedAt: 0,
        cpu: { machinePct: 90, benchPct: 80, othersPct: 10 },
      },
      firstDigestMs: 800,
      rateTo90: 60,
      firsts: {
        workspaces: 100,
        reached: 100,
        minMs: 800,
        p50Ms: 3_000,
        p90Ms: 8_000,
        maxMs: 12_000,
        over30s: 0,
        lastSize: 6,
      },
      channels: { channels: 1_000, short: 0, lost: 0, duplicated: 0 },
      web: {
        sent: 4_000,
        ackMs: { n: 4_000, p50: 2, p90: 8, p99: 20, max: 60, mean: 3 },
        replyMs: { n: 3_900, p50: 100, p90: 400, p99: 900, max: 2_000, mean: 150 },
        replies: 3_900,
        busy: 0,
        lost: 0,
        timeouts: 0,
      } as MondayRun["web"],
      slotS: 40,
      cpu: [{ name: "worker 1", cpuS: 20 }],
      workersBeforeFireCpuS: [3, 3],
      workerPeakRssMb: [400, 420],
      redisPeakMb: 60,
      redisPeakInfoMb: 61,
      held: {
        afterS: 120,
        bytesPerSub: 650,
        families: [],
        info: { dataset: 1, overhead: 1, clients: 0.1, scripts: 0.1, aofBuffer: 0 },
      },
      ...o,
    }) as MondayRun;
  const results = (m: Partial<MondayResult>) =>
    ({ monday: { plan: planFor(true).monday, slot: run(), ...m } }) as unknown as BenchResults;
  const verdicts = (r: BenchResults) => Object.fromEntries(mondayTargets(r).map((t) => [t.target, t.met]));

  it("all ten read 'not measured' when the section did not run", () => {
    const rows = mondayTargets({} as BenchResults);
    expect(rows).toHaveLength(10);
    expect(rows.every((t) => t.met === null)).toBe(true);
  });

  it("a workspace that never got a digest misses its target even when every other came in time", () => {
    const r = results({ slot: run({ firsts: { ...run().firsts, reached: 99 } }) });
    const row = mondayTargets(r).find((t) => t.target.includes("every workspace's first"));
    expect(row?.met).toBe(false);
    expect(row?.figure).toContain("1 never");
  });

  it("judges the slot, the memory held and the pair on their bounds", () => {
    const good = verdicts(
      results({
        scaling: {
          subscriptions: 2_000,
          one: run({ rateTo90: 35, workers: 1 }),
          ratioTo90: 1.71,
          ratioAll: 1.2,
        },
      }),
    );
    expect(Object.values(good).filter((v) => v === false)).toEqual([]);
    const bad = mondayTargets(
      results({
        slot: run({
          storm: { ...run().storm, timeToAllMs: 301_000 },
          held: { ...run().held, afterS: 120, bytesPerSub: 701, families: [] } as MondayRun["held"],
          workerPeakRssMb: [1_025, 400],
        }),
        scaling: { subscriptions: 2_000, one: run({ rateTo90: 40 }), ratioTo90: 1.5, ratioAll: 1.5 },
      }),
    );
    expect(bad.filter((t) => t.met === false).map((t) => t.target.slice(0, 30))).toEqual([
      "Monday slot: every digest deli",
      "Monday slot: ≤ 700 B of Redis ",
      "Monday slot: each worker's pea",
      "two worker processes deliver ≥",
    ]);
    // Two web processes were not run here: no verdict.
    expect(bad.find((t) => t.target.startsWith("two web processes"))?.met).toBeNull();
  });
});

describe("choosing the slot's size", () => {
  it("--subs sizes the slot, and its one-against-two pair up to 10,000", () => {
    expect(planFor(false).monday).toMatchObject({ subs: 100_000, scalingSubs: 10_000 });
    expect(planFor(true).monday).toMatchObject({ subs: 10_000, scalingSubs: 10_000 });
    expect(planFor(false, { subs: 2_000 }).monday).toMatchObject({ subs: 2_000, scalingSubs: 2_000 });
    expect(benchCommand({ quick: false, only: ["monday"], subs: 2_000 })).toBe(
      "npm run bench -- --only monday --subs 2000",
    );
    expect(benchCommand({ quick: true })).toBe("npm run bench -- --quick");
    expect(benchCommand({ quick: false })).toBe("npm run bench");
  });
});
