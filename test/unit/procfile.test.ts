import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { launcherFlags, NODE_LAUNCHER, procfileNodeFlags } from "../setup/product-build.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FLAG = "--experimental-async-context-frame";

/** Runs the launcher with `node` resolved from `bin` first on the PATH. */
const launch = (bin: string, args: string[]) =>
  spawnSync("sh", [join(ROOT, NODE_LAUNCHER), ...args], {
    encoding: "utf8",
    env: { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` },
  });

/**
 * A stand-in `node` for the launcher's two calls: the probe (`-e`) answers whether the flag is
 * taken, as `allowed` says; any other call prints the arguments it was started with.
 */
function fakeNode(allowed: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "fake-node-"));
  const file = join(dir, "node");
  writeFileSync(file, `#!/bin/sh\nif [ "$1" = "-e" ]; then exit ${allowed ? 0 : 1}; fi\necho "$@"\n`);
  chmodSync(file, 0o755);
  return dir;
}

describe("the Procfile", () => {
  it("runs the built CLI for web and worker through the launcher, with Node flags this Node accepts", () => {
    for (const kind of ["web", "worker"] as const) {
      const flags = procfileNodeFlags(kind);
      const run = spawnSync(process.execPath, [...flags, "-e", "0"], { encoding: "utf8" });
      expect(run.stderr).toBe("");
      expect(run.status).toBe(0);
    }
  });

  it("gives the worker a young generation large enough for a slot's drivers", () => {
    // A larger young generation spends less of the worker's CPU collecting a digest's garbage
    // (docs/performance.md has the figures); the bench starts its workers with these same flags.
    expect(procfileNodeFlags("worker")).toContain("--max-semi-space-size=64");
  });
});

describe("the Node launcher", () => {
  it("adds the async-context flag where Node takes it, and passes everything else through in order", () => {
    const args = ["--max-semi-space-size=64", "dist/src/cli/main.js", "worker"];
    expect(launch(fakeNode(true), args).stdout.trim()).toBe(`${FLAG} ${args.join(" ")}`);
    expect(launch(fakeNode(false), args).stdout.trim()).toBe(args.join(" "));
  });

  it("starts this machine's Node with exactly the flags it takes (none on Node 20 or 24)", () => {
    const run = launch(dirname(process.execPath), ["-p", "JSON.stringify(process.execArgv)"]);
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const given = JSON.parse(run.stdout) as string[];
    const takes = process.allowedNodeEnvironmentFlags.has(FLAG);
    expect(given.includes(FLAG)).toBe(takes);
    expect(launcherFlags()).toEqual(takes ? [FLAG] : []);
  });
});
