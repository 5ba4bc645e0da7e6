import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { quantile, round } from "./stats.ts";

/**
 * What importing a module costs a fresh process (a restarted worker, a new web process):
 * `node --import tsx test/bench/start-cost.ts RUNS SPEC [SPEC …]`, where a SPEC is
 * `[NAME=value,…@]path/to/module.js`: the module, imported by a fresh `node` (this one, or
 * START_COST_NODE) with those variables set. The specs take turns, RUNS times each, and the script
 * prints each one's median import time and RSS after the import. For example, the built worker against
 * a build of an older commit (in a worktree with its own `npm run build`), or on Node 22.1+ with and
 * without Node's compile cache (the first run with it fills the cache):
 * `… 12 NODE_DISABLE_COMPILE_CACHE=1@dist/src/app/worker.js NODE_COMPILE_CACHE=/tmp/cc@dist/src/app/worker.js`.
 */

const [runsText = "", ...specs] = process.argv.slice(2);
const runs = Number(runsText);
if (!Number.isInteger(runs) || runs < 1 || specs.length === 0) {
  process.stderr.write("usage: start-cost.ts RUNS [NAME=value,…@]MODULE [more specs]\n");
  process.exit(2);
}
const node = process.env.START_COST_NODE ?? process.execPath;

function parse(spec: string) {
  // Variables come first, before the first "@", and name at least one NAME=; a bare path may hold an "@".
  const first = spec.indexOf("@");
  const at = first > 0 && spec.slice(0, first).includes("=") ? first : -1;
  const vars = at < 0 ? [] : spec.slice(0, at).split(",");
  const env: Record<string, string> = {};
  for (const v of vars) {
    const eq = v.indexOf("=");
    if (eq < 1) throw new Error(`not NAME=value: ${v}`);
    env[v.slice(0, eq)] = v.slice(eq + 1);
  }
  return { spec, env, url: pathToFileURL(resolve(spec.slice(at + 1))).href };
}

const code = (url: string) =>
  `const t = performance.now(); await import(${JSON.stringify(url)}); ` +
  "process.stdout.write(JSON.stringify({ ms: performance.now() - t, rss: process.memoryUsage().rss }));";

const cases = specs.map((s) => ({ ...parse(s), ms: [] as number[], rssMb: [] as number[] }));
for (let i = 0; i < runs; i++)
  for (const c of cases) {
    const r = spawnSync(node, ["--input-type=module", "-e", code(c.url)], {
      encoding: "utf8",
      env: { ...process.env, ...c.env },
    });
    if (r.status !== 0) throw new Error(`${c.spec}: ${r.stderr.trim()}`);
    const { ms, rss } = JSON.parse(r.stdout) as { ms: number; rss: number };
    c.ms.push(ms);
    c.rssMb.push(rss / 1024 / 1024);
  }
for (const c of cases)
  process.stdout.write(
    `${c.spec}: import median ${round(quantile(c.ms, 0.5), 0)} ms (min ${round(Math.min(...c.ms), 0)}, max ${round(Math.max(...c.ms), 0)}), RSS median ${round(quantile(c.rssMb, 0.5), 0)} MB, ${runs} runs\n`,
  );
