import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "./cli-run.ts";

/**
 * The npm packages a fresh Node process has loaded after importing one of our modules: what a
 * process of that kind pays for at every start (a restarted worker, a new dyno), whatever it runs.
 */
function packagesLoadedBy(module: string): Set<string> {
  const code = `
    import { createRequire } from "node:module";
    await import(${JSON.stringify(module)});
    const names = new Set();
    for (const file of Object.keys(createRequire(import.meta.url).cache)) {
      const rest = file.split("node_modules/").pop();
      if (rest === file) continue;
      const parts = rest.split("/");
      names.add(parts[0].startsWith("@") ? parts[0] + "/" + parts[1] : parts[0]);
    }
    process.stdout.write(JSON.stringify([...names]));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: ROOT,
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
  });
  expect(r.stderr).toBe("");
  return new Set(JSON.parse(r.stdout) as string[]);
}

// Bolt's entry loads its HTTP server, OAuth, Socket Mode (and with it a second HTTP client) and JWT:
// a third of a worker's start, for a process that only calls the Web API.
const WEB_ONLY = ["@slack/bolt", "@slack/socket-mode", "@slack/oauth", "express", "jsonwebtoken", "undici"];

describe("what each process loads", () => {
  it("the worker (deliveries and interactive digests) loads none of the web framework", () => {
    const loaded = packagesLoadedBy("./src/app/worker.ts");
    expect(WEB_ONLY.filter((name) => loaded.has(name))).toEqual([]);
    // What it does use, so an empty list above is not a blind check.
    expect(["bullmq", "ioredis", "@slack/web-api"].filter((name) => !loaded.has(name))).toEqual([]);
  });

  it("a digest thread's runner (the threads of a single-process `start`) loads none of it either", () => {
    const loaded = packagesLoadedBy("./src/app/interactive.ts");
    expect(WEB_ONLY.filter((name) => loaded.has(name))).toEqual([]);
    expect(loaded.has("@slack/web-api")).toBe(true);
  });

  it("the web process does load Bolt (the checks above can see it)", () => {
    const loaded = packagesLoadedBy("./src/app/web.ts");
    expect(loaded.has("@slack/bolt")).toBe(true);
  });
});
