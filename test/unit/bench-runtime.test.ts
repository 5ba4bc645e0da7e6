import { describe, expect, it } from "vitest";
import {
  DEFAULT_RUNTIME,
  majorOf,
  needsOtherNode,
  parseRuntime,
  resolveRuntime,
  runtimeCacheDir,
  withoutNodeFlag,
} from "../bench/runtime.ts";

/** The bench's choice of Node (test/bench/runtime.ts): what it accepts, when it runs itself again. */
describe("bench runtime", () => {
  it("measures on Node 22 unless told otherwise: the older of the two runtimes users deploy", () => {
    expect(parseRuntime(DEFAULT_RUNTIME)).toEqual({ kind: "major", major: 22 });
  });

  it("accepts machine, a major version and a path; refuses the rest with the accepted forms", () => {
    expect(parseRuntime("machine")).toEqual({ kind: "machine" });
    expect(parseRuntime("24")).toEqual({ kind: "major", major: 24 });
    expect(parseRuntime(" v22 ")).toEqual({ kind: "major", major: 22 });
    expect(parseRuntime("/opt/node/bin/node")).toEqual({ kind: "path", path: "/opt/node/bin/node" });
    expect(() => parseRuntime("18")).toThrow(/Node 20 or later/);
    expect(() => parseRuntime("latest")).toThrow(/"machine", a major version such as 22 or 24, or a path/);
    expect(() => parseRuntime("22.1")).toThrow(/expected "machine"/);
  });

  it("runs itself again only under another Node than the one running it", () => {
    const here = { version: "v20.20.2", execPath: "/usr/bin/node" };
    expect(needsOtherNode({ kind: "machine" }, here)).toBe(false);
    expect(needsOtherNode({ kind: "major", major: 20 }, here)).toBe(false);
    expect(needsOtherNode({ kind: "major", major: 22 }, here)).toBe(true);
    expect(needsOtherNode({ kind: "path", path: "/usr/bin/node" }, here)).toBe(false);
    expect(needsOtherNode({ kind: "path", path: "/opt/node22/bin/node" }, here)).toBe(true);
    expect(majorOf("v24.21.0")).toBe(24);
    expect(majorOf("nonsense")).toBeNaN();
  });

  it("passes every argument on but --node, in both spellings", () => {
    expect(withoutNodeFlag(["--quick", "--node", "24", "--only", "ack"])).toEqual([
      "--quick",
      "--only",
      "ack",
    ]);
    expect(withoutNodeFlag(["--node=machine", "--quick"])).toEqual(["--quick"]);
  });

  it("keeps fetched runtimes outside node_modules, under XDG_CACHE_HOME when set", () => {
    expect(runtimeCacheDir(22, { XDG_CACHE_HOME: "/var/cache/me" })).toBe(
      "/var/cache/me/insights-digest/bench-node/22",
    );
    expect(runtimeCacheDir(24, { HOME: "/h" })).toMatch(/\/\.cache\/insights-digest\/bench-node\/24$/);
  });

  it("takes a given binary that runs, and refuses one that does not", () => {
    const log: string[] = [];
    expect(resolveRuntime({ kind: "path", path: process.execPath }, (l) => log.push(l))).toBe(
      process.execPath,
    );
    expect(() => resolveRuntime({ kind: "path", path: "/nonexistent/bin/node" }, (l) => log.push(l))).toThrow(
      /not a node binary that runs here/,
    );
    expect(log).toEqual([]);
  });
});
