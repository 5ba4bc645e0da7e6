import { measureWorkerCpu } from "./worker-cpu-section.ts";

/**
 * The worker CPU target on its own: `node --import tsx test/bench/storm/worker-cpu.ts [pairs]` (default
 * 5, about 20 s a pair); `npm run bench -- --only worker-cpu` runs the same and reports it.
 */
const pairs = Math.max(1, Number(process.argv[2] ?? 5));
const result = await measureWorkerCpu(pairs, (line) => process.stdout.write(`${line.trim()}\n`));
const within = result.pairs.filter((p) => p.ratio <= 1.5).length;
process.stdout.write(
  `worker CPU with drivers / without: median ${result.median} × over ${pairs} pairs (${within} within 1.5 ×; ${result.pairs.map((p) => p.ratio).join(", ")})\n`,
);
