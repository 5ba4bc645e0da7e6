import { readFileSync } from "node:fs";
import { busyTimeline } from "./ack/profile.ts";

/**
 * Busy and GC share per time window of CPU profiles taken at the same time, side by side:
 * `node --import tsx test/bench/profile-timeline.ts WINDOW_MS FILE...`, e.g. every profile of
 * `BENCH_PROFILE_CHILDREN=1 node --import tsx test/bench/storm/profile-worker.ts 2000 200 1 drivers`
 * (/tmp/bench-prof: the worker's and the outside services' process) with 500: shows which process
 * was the bottleneck during a storm's start and after it. Times count from the earliest window.
 */

const [windowArg, ...files] = process.argv.slice(2);
const windowMs = Number(windowArg);
if (!(windowMs > 0) || files.length === 0) {
  process.stderr.write("usage: profile-timeline.ts WINDOW_MS FILE...\n");
  process.exit(2);
}
const lines = files.map(
  (f) => new Map(busyTimeline(JSON.parse(readFileSync(f, "utf8")), windowMs).map((w) => [w.fromMs, w])),
);
const starts = [...new Set(lines.flatMap((l) => [...l.keys()]))].sort((a, b) => a - b);
const first = starts[0] ?? 0;
for (const [i, f] of files.entries()) process.stdout.write(`#${i + 1}: ${f}\n`);
process.stdout.write(`s\t${files.map((_, i) => `#${i + 1} busy %\tGC %`).join("\t")}\n`);
for (const at of starts) {
  const cells = lines.map((l) => {
    const w = l.get(at);
    return w ? `${w.busyPct}\t${w.gcPct}` : "–\t–";
  });
  process.stdout.write(`${((at - first) / 1000).toFixed(1)}\t${cells.join("\t")}\n`);
}
