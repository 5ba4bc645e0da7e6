import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { busyTimeline, compareSelf, inclusiveByFunction, summarizeProfile } from "../bench/ack/profile.ts";

/**
 * A profile of root → run → build → render, with build also calling itself (recursion); `more`
 * samples of 1 ms each are added on the node ids given (4: render, 5: the inner build).
 */
function profileFile(more: number[] = []): string {
  // A function's frames share its place (a recursive call is the same function at the same line).
  const lines: Record<string, number> = { run: 10, build: 20, render: 30 };
  const frame = (id: number, functionName: string, children: number[] = []) => ({
    id,
    callFrame: { functionName, url: "file:///app/src/digests/x.js", lineNumber: lines[functionName] ?? 0 },
    children,
  });
  const profile = {
    nodes: [
      { id: 1, callFrame: { functionName: "(root)", url: "", lineNumber: 0 }, children: [2, 6] },
      frame(2, "run", [3]),
      frame(3, "build", [4, 5]),
      frame(4, "render"),
      frame(5, "build"),
      { id: 6, callFrame: { functionName: "(idle)", url: "", lineNumber: 0 } },
    ],
    // 1 ms in run itself, 2 ms in render, 3 ms in the inner build, 10 ms idle.
    samples: [2, 4, 4, 5, 5, 5, 6, ...more],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 10_000, ...more.map(() => 1000)],
    startTime: 0,
    endTime: 16_000,
  };
  const file = join(tmpdir(), `profile-${process.pid}-${more.length}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

describe("inclusive time per function of a CPU profile", () => {
  it("charges each sample to every function on its stack once, leaves idle out, and keeps only what matches", () => {
    const { busyMs, rows } = inclusiveByFunction(profileFile(), /src\//);
    expect(busyMs).toBe(6);
    const ms = Object.fromEntries(rows.map((r) => [r.fn.split("@")[0], r.ms]));
    // build appears twice on the inner stacks but counts once per sample.
    expect(ms).toEqual({ run: 6, build: 5, render: 2 });
    expect(rows.map((r) => r.fn.split("@")[0])).toEqual(["run", "build", "render"]);
    expect(inclusiveByFunction(profileFile(), /render/).rows.map((r) => r.ms)).toEqual([2]);
  });
});

describe("self time of two profiles compared per unit of work", () => {
  it("gives what the second spends per unit beyond the first, function by function, the most first", () => {
    // Base: 2 units of work; other: 1 unit with 4 more ms of render and 1 more of the inner build.
    const base = { summary: summarizeProfile(profileFile(), Number.POSITIVE_INFINITY), units: 2 };
    const other = {
      summary: summarizeProfile(profileFile([4, 4, 4, 4, 5]), Number.POSITIVE_INFINITY),
      units: 1,
    };
    const { busy, rows } = compareSelf(base, other);
    expect(busy).toEqual({ base: 3, ms: 11 });
    const byName = Object.fromEntries(rows.map((r) => [r.fn.split("@")[0], [r.base, r.ms, r.added]]));
    // render: 2 ms over 2 units against 6 ms over 1; build: 3 / 2 against 4; run: 1 / 2 against 1.
    expect(byName).toEqual({ render: [1, 6, 5], build: [1.5, 4, 2.5], run: [0.5, 1, 0.5] });
    expect(rows.map((r) => r.fn.split("@")[0])).toEqual(["render", "build", "run"]);
  });
});

describe("a CPU profile's busy share per time window", () => {
  it("splits samples by absolute window, counts idle and program as not busy, and GC apart", () => {
    const node = (id: number, functionName: string) => ({
      id,
      callFrame: { functionName, url: "", lineNumber: 0 },
    });
    const profile = {
      nodes: [node(1, "work"), node(2, "(garbage collector)"), node(3, "(idle)"), node(4, "(program)")],
      // Starts at 9 ms: samples end at 10, 11, 12 (window 10–20: work, gc, idle) and 21, 22 (20–30: program, work).
      samples: [1, 2, 3, 4, 1],
      timeDeltas: [1000, 1000, 1000, 9000, 1000],
      startTime: 9000,
      endTime: 22_000,
    };
    expect(busyTimeline(profile, 10)).toEqual([
      { fromMs: 10, busyPct: 66.7, gcPct: 33.3 },
      { fromMs: 20, busyPct: 10, gcPct: 0 },
    ]);
  });
});
