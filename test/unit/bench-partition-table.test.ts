import { describe, expect, it } from "vitest";
import { faultTable, type SlotOutcome } from "../bench/partitions/table.ts";
import type { RunResult } from "../partitions/scenario.ts";

const result = (o: Partial<RunResult> & Pick<RunResult, "fault" | "minReplicas">): RunResult => ({
  confirm: "auto",
  digests: 500,
  lost: 0,
  duplicated: 0,
  late: [],
  recoverySec: 30,
  undeliveredAtEffect: 100,
  lastSec: 60,
  drainedSec: 70,
  commands: 10,
  answered: 10,
  answeredTwice: 0,
  notes: [],
  ...o,
});

const row = (table: string, fault: string, min: number) =>
  table
    .split("\n")
    .find((l) => l.startsWith(`| ${fault} | ${min} |`))
    ?.split("|")
    .map((c) => c.trim())
    .slice(1, -1);

describe("the partition runs' table", () => {
  it("puts what a later slot found in the row of the slot it belongs to", () => {
    const outcomes: SlotOutcome[] = [
      {
        run: 1,
        world: 0,
        wallSec: 300,
        result: result({ fault: "split-brain", minReplicas: 0, lost: 2, drainedSec: null }),
      },
      {
        run: 1,
        world: 0,
        wallSec: 200,
        result: result({
          fault: "pause",
          minReplicas: 0,
          late: [{ fault: "split-brain", minReplicas: 0, duplicated: 1, delivered: 2 }],
        }),
      },
    ];
    const table = faultTable(outcomes, ["split-brain", "pause"], [0]);
    const split = row(table, "split-brain", 0);
    expect(split?.slice(4, 6)).toEqual(["2 (2 of them posted later)", "0 + 1 found later"]);
    // Its jobs outlived the wait: the longest, whatever the others took.
    expect(split?.[8]).toBe("past the wait, past the wait");
    expect(row(table, "pause", 0)?.slice(4, 6)).toEqual(["0", "0"]);
  });

  it("counts a failed slot apart and in none of the figures", () => {
    const outcomes: SlotOutcome[] = [
      { run: 1, world: 0, wallSec: 100, result: result({ fault: "pause", minReplicas: 1, recoverySec: 20 }) },
      { run: 2, world: 1, wallSec: 100, result: result({ fault: "pause", minReplicas: 1, recoverySec: 40 }) },
      { run: 3, world: 2, wallSec: 100, fault: "pause", minReplicas: 1, failed: "did not settle" },
    ];
    const pause = row(faultTable(outcomes, ["pause"], [1]), "pause", 1);
    expect(pause?.[2]).toBe("2 (1)");
    // The lower median of 20 and 40, and the max.
    expect(pause?.[6]).toBe("20.0, 40.0");
  });
});
