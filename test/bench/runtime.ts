import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The Node.js a bench run measures on. Users deploy on Node 22 and 24, while a machine may carry an
 * older one (these machines run Node 20, past its end of life). A run measures every one of its
 * processes — the app's, bare Bolt's and the bare loop's, the stand-ins', the load sender — on the
 * same runtime: they are all started with `process.execPath`, so the bench runs itself again under
 * the chosen Node and everything follows. The default is 22, the older of the two users deploy, so
 * a figure is never flattered by the newer runtime; `--node machine` measures on whatever runs the
 * command, `--node 24` (or a path to a `node` binary) on another.
 */

export const DEFAULT_RUNTIME = "22";

export type RuntimeChoice =
  | { kind: "machine" }
  | { kind: "major"; major: number }
  | { kind: "path"; path: string };

/** `machine`, a major version (`22`, `v24`), or a path to a node binary; anything else is refused with the accepted forms. */
export function parseRuntime(text: string): RuntimeChoice {
  const t = text.trim();
  if (t === "machine") return { kind: "machine" };
  const major = /^v?(\d{2})$/.exec(t);
  if (major) {
    const n = Number(major[1]);
    if (n < 20) throw new Error(`--node ${t}: the app needs Node 20 or later (package.json engines)`);
    return { kind: "major", major: n };
  }
  if (t.includes("/")) return { kind: "path", path: t };
  throw new Error(
    `--node ${JSON.stringify(text)}: expected "machine", a major version such as 22 or 24, or a path to a node binary`,
  );
}

/** The major version of a `process.version` string (`v22.23.3` → 22). */
export const majorOf = (version: string): number => Number(/^v(\d+)\./.exec(version)?.[1] ?? Number.NaN);

/** Whether a run asked for `choice` must start again under another Node than the one running it. */
export function needsOtherNode(
  choice: RuntimeChoice,
  current: { version: string; execPath: string },
): boolean {
  if (choice.kind === "machine") return false;
  if (choice.kind === "major") return majorOf(current.version) !== choice.major;
  return choice.path !== current.execPath;
}

/** Where a major version fetched from the npm registry is kept between runs (outside node_modules, which `npm ci` empties). */
export function runtimeCacheDir(major: number, env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "insights-digest", "bench-node", String(major));
}

/** The version a binary reports, or undefined when it does not run. */
function versionOf(binary: string): string | undefined {
  const r = spawnSync(binary, ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/**
 * The binary for `choice`: a path as given (checked to run), or Node `major` from the npm registry's
 * `node` package (what .ci/run uses for Node 24), installed once into the cache directory. Throws
 * with what to do when it cannot.
 */
export function resolveRuntime(
  choice: Exclude<RuntimeChoice, { kind: "machine" }>,
  log: (line: string) => void,
): string {
  if (choice.kind === "path") {
    const v = versionOf(choice.path);
    if (!v) throw new Error(`--node ${choice.path}: not a node binary that runs here`);
    if (majorOf(v) < 20) throw new Error(`--node ${choice.path}: ${v}; the app needs Node 20 or later`);
    return choice.path;
  }
  const dir = runtimeCacheDir(choice.major);
  const binary = join(dir, "node_modules", ".bin", "node");
  if (!existsSync(binary) || majorOf(versionOf(binary) ?? "") !== choice.major) {
    log(`fetching Node ${choice.major} from the npm registry into ${dir} (once; about 50 MB)`);
    mkdirSync(dir, { recursive: true });
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const r = spawnSync(
      npm,
      [
        "install",
        "--prefix",
        dir,
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        `node@${choice.major}`,
      ],
      { encoding: "utf8" },
    );
    const v = versionOf(binary);
    if (r.status !== 0 || majorOf(v ?? "") !== choice.major)
      throw new Error(
        `could not fetch Node ${choice.major} from the npm registry (${(r.stderr || r.stdout || "").trim().split("\n").pop() ?? "no output"}); run with --node machine to measure on this machine's Node`,
      );
  }
  return binary;
}

/** `args` without `--node X` / `--node=X`, for the run started again (which measures where it runs). */
export function withoutNodeFlag(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--node") i++;
    else if (!a.startsWith("--node=")) out.push(a);
  }
  return out;
}

/**
 * Runs this command again under `binary` with `args` (the bench's own, without `--node`), the
 * machine's version passed on for the report; resolves to its exit code. SIGINT and SIGTERM are passed on.
 */
export function rerunUnder(binary: string, args: readonly string[]): Promise<number> {
  const script = process.argv[1] as string;
  const child = spawn(binary, [...process.execArgv, script, ...args], {
    stdio: "inherit",
    env: { ...process.env, BENCH_NODE: "machine", BENCH_MACHINE_NODE: process.version },
  });
  const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInt = pass("SIGINT");
  const onTerm = pass("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      resolve(code ?? (signal ? 1 : 0));
    });
    child.on("error", () => resolve(1));
  });
}
