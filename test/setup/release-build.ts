import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A released version of the product, compiled from this repository's history, for tests that run it
 * beside this checkout (a rolling deploy). The commit's files are taken with `git archive`, this
 * checkout's node_modules is linked in, and its `tsconfig.build.json` is compiled with this
 * checkout's TypeScript, as `npm run build` would. The build is kept in the temp dir under the commit
 * and the compiler's version, so a second run starts at once.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface ReleaseBuild {
  /** The released tree, compiled: `dist/src/cli/main.js` is its CLI. */
  dir: string;
  /** `node <cli> <command>` runs the release's `insights-digest <command>`. */
  cli: string;
  /** Its dependencies whose installed version is not the one its lockfile names (name: locked → installed). */
  driftedDependencies: string[];
}

const git = (args: string[]) => spawnSync("git", ["-C", ROOT, ...args], { encoding: "utf8" });

/**
 * Where the release's files come from: this clone's history, or, where the clone lacks the commit (a
 * shallow clone of CI, say), the archive of its build inputs kept in test/fixtures/releases/ under its
 * full hash (`git archive <commit> src commands templates bin package.json package-lock.json
 * tsconfig.json tsconfig.build.json`). Throws, saying what to do, when neither has it.
 */
export function releaseSource(commit: string, what: string): { full: string; archive?: string } {
  const kept = join(ROOT, "test", "fixtures", "releases", `${commit}.tar.gz`);
  const found = git(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`]);
  if (!found.error && found.status === 0) return { full: found.stdout.trim() };
  if (/^[0-9a-f]{40}$/.test(commit) && existsSync(kept)) return { full: commit, archive: kept };
  if (found.error)
    throw new Error(
      `This test runs ${what} built from git history, and git did not run: ${found.error.message}`,
    );
  throw new Error(
    `This test runs ${what} (commit ${commit}) beside this checkout, and neither this clone nor test/fixtures/releases/ has it${found.stderr ? ` (${found.stderr.trim()})` : ""}. A shallow clone lacks it: fetch the history (git fetch --unshallow, or a checkout with fetch-depth: 0) and run it again.`,
  );
}

const run = (cmd: string, args: string[], cwd: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} failed (${code}): ${out}`)),
    );
  });

interface Lock {
  packages?: Record<string, { version?: string }>;
}

/** `names` whose installed version differs from the one `lock` names, as `name locked → installed`. */
function drift(lock: Lock, names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const entry = lock.packages?.[`node_modules/${name}`];
    if (!entry?.version) continue;
    const installed = join(ROOT, "node_modules", name, "package.json");
    const version = existsSync(installed)
      ? (JSON.parse(readFileSync(installed, "utf8")) as { version?: string }).version
      : "missing";
    if (version !== entry.version) out.push(`${name} ${entry.version} → ${version}`);
  }
  return out;
}

/**
 * The release at `commit`, compiled (built here the first time, about a minute and a half on a
 * loaded 2-core machine). Fails when the commit is missing from the clone, when one of the release's
 * direct dependencies is not installed here, or when its sources do not compile against them.
 */
export async function releaseBuild(commit: string, what: string): Promise<ReleaseBuild> {
  const { full, archive } = releaseSource(commit, what);
  const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const tsVersion = (
    JSON.parse(readFileSync(join(ROOT, "node_modules", "typescript", "package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const dir = join(tmpdir(), `insights-digest-release-${full.slice(0, 12)}-ts${tsVersion}`);
  const cli = join(dir, "dist", "src", "cli", "main.js");
  const built = join(dir, ".built");
  if (!existsSync(built)) {
    rmSync(dir, { recursive: true, force: true });
    // Built beside its final place and moved there whole, so a build cut short is never taken for done.
    const partial = mkdtempSync(`${dir}.partial-`);
    try {
      if (archive) await run("tar", ["-xzf", archive, "-C", partial], partial);
      else {
        const tar = join(partial, "release.tar");
        await run("git", ["-C", ROOT, "archive", "--format=tar", "-o", tar, full], ROOT);
        await run("tar", ["-xf", tar, "-C", partial], partial);
        rmSync(tar);
      }
      const pkg = JSON.parse(readFileSync(join(partial, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      const missing = Object.keys(pkg.dependencies ?? {}).filter(
        (name) => !existsSync(join(ROOT, "node_modules", name, "package.json")),
      );
      if (missing.length > 0)
        throw new Error(
          `${what} depends on ${missing.join(", ")}, which this checkout does not install: the release cannot run on this checkout's node_modules.`,
        );
      symlinkSync(join(ROOT, "node_modules"), join(partial, "node_modules"), "dir");
      await run(process.execPath, [tsc, "-p", "tsconfig.build.json"], partial);
      writeFileSync(join(partial, ".built"), `${full}\n`);
      try {
        renameSync(partial, dir);
      } catch (err) {
        // Another run finished the same build first: keep that one.
        if (!existsSync(built)) throw err;
        rmSync(partial, { recursive: true, force: true });
      }
    } catch (err) {
      rmSync(partial, { recursive: true, force: true });
      throw err;
    }
  }
  const lockPath = join(dir, "package-lock.json");
  const deps = Object.keys(
    (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> })
      .dependencies ?? {},
  );
  const driftedDependencies = existsSync(lockPath)
    ? drift(JSON.parse(readFileSync(lockPath, "utf8")) as Lock, deps)
    : [];
  return { dir, cli, driftedDependencies };
}
