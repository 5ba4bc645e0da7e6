import { spawnSync } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freshBuild } from "../setup/product-build.ts";
import { BIN, emptyDir, ROOT, removeEmptyDirs, run } from "./cli-run.ts";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * A production install as `npm ci --omit=dev` leaves it: package.json, bin/, and node_modules
 * without the dev dependencies (no tsx); dist/ only once built. The node_modules are links to this
 * checkout's packages minus tsx (the bin script resolves tsx from its own folder up).
 */
function productionInstall(): string {
  const dir = emptyDir("prod-install-");
  mkdirSync(join(dir, "bin"));
  copyFileSync(join(ROOT, "bin", "insights-digest.js"), join(dir, "bin", "insights-digest.js"));
  copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
  mkdirSync(join(dir, "node_modules"));
  for (const name of readdirSync(join(ROOT, "node_modules"))) {
    if (name === "tsx" || name.startsWith(".")) continue;
    symlinkSync(join(ROOT, "node_modules", name), join(dir, "node_modules", name));
  }
  return dir;
}
afterAll(removeEmptyDirs);

describe("bin/insights-digest.js", () => {
  it("in a source checkout runs the TypeScript sources through tsx", async () => {
    const r = await run([BIN, "--version"]);
    expect(r).toMatchObject({ code: 0, stdout: `insights-digest ${version}\n` });
  });

  it("in an install without dev dependencies and no build, says what to run", async () => {
    const r = await run([join(productionInstall(), "bin", "insights-digest.js"), "--version"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "insights-digest: this install has neither the dev dependencies (tsx) to run the TypeScript sources nor a build in dist/. Run `npm ci` for a development checkout, or `npm run build` (before `npm prune --omit=dev`) for production.\n",
    );
  });

  it("in an install without dev dependencies runs the built dist/", async () => {
    const prod = productionInstall();
    // This checkout's fresh build when there is one (CI builds just before the tests): compiling
    // the whole project again is half a minute of CPU.
    const fresh = freshBuild();
    if (fresh) cpSync(fresh, join(prod, "dist"), { recursive: true });
    else {
      const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
      const build = spawnSync(
        process.execPath,
        [tsc, "-p", "tsconfig.build.json", "--outDir", join(prod, "dist")],
        { cwd: ROOT, encoding: "utf8" },
      );
      expect(build.stdout + build.stderr).toBe("");
    }
    const bin = join(prod, "bin", "insights-digest.js");
    expect(await run([bin, "--version"])).toMatchObject({ code: 0, stdout: `insights-digest ${version}\n` });
    // The built CLI reads config like the sources do; preview's emulator is a source-checkout tool.
    const missing = await run([bin, "worker"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^insights-digest: Missing configuration for "worker": REDIS_URL/);
    const preview = await run([bin, "preview"]);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toMatch(
      /^insights-digest: With no ANALYTICS_GRAPHQL_URL or ANALYTICS_APP_URL set, preview runs against the built-in analytics emulator, which lives in a source checkout \(sandbox\/\); this install has none\. .* Or set ANALYTICS_APP_URL and ANALYTICS_API_KEY to preview against your platform\.\n$/,
    );
    // Compiled code is kept between starts where Node can (22.1 and newer), in Node's default
    // directory under TMPDIR; NODE_DISABLE_COMPILE_CACHE=1 turns it off, and Node 20 has none.
    const unreachable = {
      ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/analytics/graphql",
      ANALYTICS_API_KEY: "k",
    };
    const compiled = async (env: Record<string, string>) => {
      const tmp = emptyDir("compile-cache-");
      const r = await run([bin, "preview", "last7d"], { env: { ...unreachable, ...env, TMPDIR: tmp } });
      expect(r.stderr).toBe("insights-digest: Could not reach the analytics service: ECONNREFUSED\n");
      const dir = join(tmp, "node-compile-cache");
      return existsSync(dir) ? readdirSync(dir, { recursive: true }).length : 0;
    };
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    const nodeCaches = major > 22 || (major === 22 && minor >= 1);
    const kept = await compiled({});
    if (nodeCaches) expect(kept).toBeGreaterThan(100);
    else expect(kept).toBe(0);
    expect(await compiled({ NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(0);
    // Without a fresh dist/ it compiles the whole project (5 s alone on 2 cores, several times that
    // beside the other test files), so it gets more than the default.
  }, 120_000);
});
