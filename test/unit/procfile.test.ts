import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { procfileNodeFlags } from "../setup/product-build.ts";

describe("the Procfile", () => {
  it("runs the built CLI for web and worker, with Node flags this Node accepts", () => {
    for (const kind of ["web", "worker"] as const) {
      const flags = procfileNodeFlags(kind);
      const run = spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    }
  });

  it("gives the worker a young generation large enough for a slot's drivers", () => {
    // A larger young generation spends less of the worker's CPU collecting a digest's garbage
    // (docs/notes/worker-cpu.md has the figures); the bench starts its workers with these same flags.
    expect(procfileNodeFlags("worker")).toContain("--max-semi-space-size=64");
  });
});
