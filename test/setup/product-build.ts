import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Which build of the product the tests' child processes run. Starting one through tsx costs about
 * twice the CPU of starting the same modules compiled (tsx resolves and loads every module through
 * its hooks), and the suite starts some hundred of them. CI builds dist/ just before `npm test`, so
 * children run that build when it is fresh: written by `npm run build` after the last change to
 * anything it compiles. Otherwise (no build, or sources edited since) they run the TypeScript
 * sources through tsx, so a developer who edits src/ without building still tests the edit.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** What `npm run build` reads (tsconfig.build.json's `include`, its settings, the package). */
const BUILD_INPUTS = ["src", "commands", "templates", "tsconfig.json", "tsconfig.build.json", "package.json"];

/** Newest modification time (ms) of the files under `path` (recursively), or of `path` when a file. */
function newest(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), st.mtimeMs);
}

let checked: { dist: string | undefined } | undefined;

/**
 * This checkout's dist/ when `npm run build` wrote it after the last change to anything it compiles,
 * undefined when there is none or it is older. Checked once per test file (a file runs in seconds to
 * minutes; a build or an edit in between is picked up by the next run).
 */
export function freshBuild(): string | undefined {
  if (!checked) {
    const dist = join(ROOT, "dist");
    const main = join(dist, "src", "cli", "main.js");
    const fresh =
      existsSync(main) && BUILD_INPUTS.every((p) => newest(join(ROOT, p)) <= statSync(main).mtimeMs);
    checked = { dist: fresh ? dist : undefined };
  }
  return checked.dist;
}

/** Checks the build again on the next call (after a build made here). */
export function forgetBuildCheck(): void {
  checked = undefined;
}

/**
 * How a test runs `insights-digest <args>` as a child process: `node <argv…>` with `env` added to the
 * child's own variables. With a fresh build, the built CLI (what bin/insights-digest.js runs in a
 * production install), and the sandbox it loads for the demo drives that build too
 * (INSIGHTS_SANDBOX_PRODUCT=dist, as CI's demo smoke run does); otherwise bin/insights-digest.js,
 * which runs the sources through tsx. Tests about the bin script itself run it directly instead.
 */
export function productCli(args: string[]): { argv: string[]; env: Record<string, string> } {
  const dist = freshBuild();
  return dist
    ? { argv: [join(dist, "src", "cli", "main.js"), ...args], env: { INSIGHTS_SANDBOX_PRODUCT: "dist" } }
    : { argv: [join(ROOT, "bin", "insights-digest.js"), ...args], env: {} };
}

/**
 * The compiled digest-thread module when the build is fresh, else undefined (the default: the
 * product's own). For test stacks, which run the app from the sources in the test process: their
 * threads are a module graph of their own, and start through tsx on twice the CPU.
 */
export function builtThreadModule(): URL | undefined {
  const dist = freshBuild();
  return dist ? pathToFileURL(join(dist, "src", "app", "interactive-thread.js")) : undefined;
}

/**
 * The product's module `name` (a path under src/ without extension, e.g. "app/worker") as a file URL
 * for a child's `import()`: from the fresh build, or the TypeScript source (the child then needs tsx).
 */
export function productModule(name: string): string {
  const dist = freshBuild();
  return dist
    ? pathToFileURL(join(dist, "src", `${name}.js`)).href
    : pathToFileURL(join(ROOT, "src", `${name}.ts`)).href;
}

/**
 * The Node flags the Procfile starts a process type with (the words between `node` and the CLI), so
 * what measures a deployed web or worker starts it the same way. Throws when the Procfile has no
 * such line or the line does not run the built CLI with that command.
 */
export function procfileNodeFlags(kind: "web" | "worker"): string[] {
  const text = readFileSync(join(ROOT, "Procfile"), "utf8");
  const line = text.split("\n").find((l) => l.startsWith(`${kind}:`));
  const words =
    line
      ?.slice(kind.length + 1)
      .trim()
      .split(/\s+/) ?? [];
  const cli = words.indexOf("dist/src/cli/main.js");
  if (words[0] !== "node" || cli < 1 || words[cli + 1] !== kind || words.length !== cli + 2)
    throw new Error(
      `Procfile: expected "${kind}: node [flags] dist/src/cli/main.js ${kind}", got ${JSON.stringify(line)}`,
    );
  return words.slice(1, cli);
}
