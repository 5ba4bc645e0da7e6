import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { quantile } from "./stats.ts";

/**
 * Each traced process's runs (requests with no gap of 400 ms or more between them), with the p99 of
 * the time requests spent inside the process, by body size, and the slowest ones:
 * `node --import tsx test/bench/ack-trace-read.ts [DIR]` (default /tmp/bench-ack-trace) after
 * `BENCH_CHILD_FLAGS="--import ./test/bench/ack-trace.mjs" npm run bench -- --quick --only ack`.
 * In that section's mix a slash command's body is under 700 bytes, a click's 1–2 KB, a type-ahead's
 * about 820 bytes and a subscribe modal's submission about 2.2 KB.
 */

interface Request {
  at: number;
  ms: number;
  bytes: number;
}

const dir = process.argv[2] ?? "/tmp/bench-ack-trace";
const kinds: [string, (b: number) => boolean][] = [
  ["< 700 B", (b) => b < 700],
  ["700–1000 B", (b) => b >= 700 && b < 1_000],
  ["1–2 KB", (b) => b >= 1_000 && b < 2_000],
  ["≥ 2 KB", (b) => b >= 2_000],
];
const p99 = (xs: number[]) => quantile(xs, 0.99).toFixed(2);

for (const file of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
  const { argv, requests: flat } = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
    argv: string[];
    requests: number[];
  };
  const runs: Request[][] = [];
  for (let i = 0; i + 2 < flat.length; i += 3) {
    const r = { at: flat[i] as number, ms: flat[i + 1] as number, bytes: flat[i + 2] as number };
    const run = runs.at(-1);
    if (!run || r.at - (run.at(-1) as Request).at >= 400) runs.push([r]);
    else run.push(r);
  }
  const long = runs.filter((r) => r.length >= 300);
  if (long.length === 0) continue;
  process.stdout.write(`${file}: ${argv.slice(-2).join(" ")}\n`);
  for (const run of long) {
    const byKind = kinds
      .map(([name, is]) => [name, run.filter((r) => is(r.bytes)).map((r) => r.ms)] as const)
      .filter(([, ms]) => ms.length > 0)
      .map(([name, ms]) => `${name} ${ms.length}: ${p99(ms)}`)
      .join(" · ");
    const slowest = [...run]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((r) => `${r.ms.toFixed(1)} ms/${r.bytes} B`)
      .join(", ");
    process.stdout.write(
      `  ${run.length} requests, p99 ${p99(run.map((r) => r.ms))} ms (${byKind}); slowest ${slowest}\n`,
    );
  }
}
