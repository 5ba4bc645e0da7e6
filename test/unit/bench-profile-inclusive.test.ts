import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inclusiveByFunction } from "../bench/ack/profile.ts";

/** A profile of root → run → build → render, with build also calling itself (recursion). */
function profileFile(): string {
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
    samples: [2, 4, 4, 5, 5, 5, 6],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 10_000],
    startTime: 0,
    endTime: 16_000,
  };
  const file = join(tmpdir(), `inclusive-${process.pid}.cpuprofile`);
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
