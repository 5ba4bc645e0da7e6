import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TestSpecification, Vitest } from "vitest/node";
import { SLOW_FILES, SlowFirstSequencer } from "../setup/sequencer.ts";

const ROOT = join(import.meta.dirname, "..", "..");

/** A spec as vitest hands it to a sequencer: its project (name, root, isolation) and its file. */
const spec = (file: string, project = "http") =>
  ({
    moduleId: join(ROOT, file),
    project: { name: project, config: { root: ROOT, isolate: true, sequence: { groupOrder: 0 } } },
  }) as unknown as TestSpecification;

/** A fresh clone: no results cached (vitest then orders the files it has no results for by size). */
const fresh = {
  config: { root: ROOT },
  cache: { getTestSpecificationResult: () => undefined },
} as unknown as Vitest;

describe("SlowFirstSequencer", () => {
  it("names only files that exist (a renamed file would silently lose its place)", () => {
    for (const file of SLOW_FILES) expect(existsSync(join(ROOT, file)), file).toBe(true);
  });

  it("starts the known slow files first, slowest first, and keeps the others in vitest's order", async () => {
    const files = [
      "test/unit/ids.test.ts",
      SLOW_FILES[3] as string,
      "test/e2e/why.test.ts",
      SLOW_FILES[0] as string,
    ];
    const sorted = await new SlowFirstSequencer(fresh).sort(files.map((f) => spec(f)));
    expect(sorted.map((s) => s.moduleId.slice(ROOT.length + 1))).toEqual([
      SLOW_FILES[0],
      SLOW_FILES[3],
      "test/unit/ids.test.ts",
      "test/e2e/why.test.ts",
    ]);
  });
});
