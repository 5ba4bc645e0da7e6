import { execFileSync } from "node:child_process";
import { getPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { lowerPriority } from "../../src/priority.ts";

const MODULE = fileURLToPath(new URL("../../src/priority.ts", import.meta.url));
// A child starts at the runner's own nice value (CI may run the suite under `nice`).
const base = getPriority();

/**
 * Runs `lowerPriority` with each value in a process of its own (it changes the nice value of every
 * thread of the process that calls it, which must not be the test runner), then reads each thread's
 * nice value from /proc as the kernel sees it.
 */
function inChild(values: number[]): { outcomes: unknown[]; nice: number[] } {
  const script = `
    import { readdirSync, readFileSync } from "node:fs";
    const { lowerPriority } = await import(${JSON.stringify(MODULE)});
    const outcomes = ${JSON.stringify(values)}.map((v) => lowerPriority(v));
    const nice = readdirSync("/proc/self/task").map((t) => {
      const stat = readFileSync("/proc/self/task/" + t + "/stat", "utf8");
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    });
    process.stdout.write(JSON.stringify({ outcomes, nice }));
  `;
  const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  return JSON.parse(out);
}

describe("lowerPriority", () => {
  it("gives every thread of the process the nice value, not only the main thread", () => {
    const { outcomes, nice } = inChild([10]);
    // Node starts V8's and libuv's threads before any of our code runs.
    expect(nice.length).toBeGreaterThan(1);
    expect(nice.every((n) => n === Math.max(base, 10))).toBe(true);
    expect(outcomes).toEqual([{ nice: 10, threads: nice.length, refused: 0 }]);
  });

  it("passes over a thread that ended before it was reached, without calling it a refusal", () => {
    // Above Linux's largest possible pid_max: no such thread can exist.
    expect(lowerPriority(10, [2 ** 22 + 1])).toEqual({ nice: 10, threads: 0, refused: 0 });
  });

  it("never lowers a nice value already higher, and 0 leaves the threads alone", () => {
    expect(inChild([15, 10]).nice.every((n) => n === Math.max(base, 15))).toBe(true);
    const { outcomes, nice } = inChild([0]);
    expect(nice.every((n) => n === base)).toBe(true);
    expect(outcomes).toEqual([{ nice: 0, threads: 0, refused: 0 }]);
  });
});
