import { inclusiveByFunction } from "./ack/profile.ts";

/**
 * Inclusive CPU time per function of a `.cpuprofile`, per unit of work:
 * `node --import tsx test/bench/profile-inclusive.ts FILE [units] [pattern] [rows]`, e.g. the worker's
 * profile of `BENCH_PROFILE_CHILDREN=1 node --import tsx test/bench/storm/profile-worker.ts 2000 200 1
 * drivers` (the largest file in /tmp/bench-prof) with units 2000: ms per digest of each of our
 * functions (pattern default `src/|templates/`), the heaviest first.
 */

const [file, units = "1", pattern = "src/|templates/", rows = "30"] = process.argv.slice(2);
if (!file) {
  process.stderr.write("usage: profile-inclusive.ts FILE [units] [pattern] [rows]\n");
  process.exit(2);
}
const n = Math.max(1, Number(units));
const { busyMs, rows: found } = inclusiveByFunction(file, new RegExp(pattern));
process.stdout.write(`${busyMs} ms busy; inclusive ms per unit (${n} units):\n`);
for (const r of found.slice(0, Number(rows)))
  process.stdout.write(`${(r.ms / n).toFixed(3).padStart(8)}  ${r.fn}\n`);
