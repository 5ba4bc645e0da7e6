import { quantile, round } from "../stats.ts";
import { FIRST_STORM, oneStorm } from "./one-storm.ts";

/**
 * The worker's CPU per delivery with drivers against without (target ≤ 1.5 ×), read the way it is
 * judged: alternated pairs of the quick bench's first storm (2,000 subscriptions, 200 workspaces each
 * with its own account, charts off), plain first, each storm in a fresh world; the verdict is the
 * median of the pairs' ratios, since one pair's ratio moves by a tenth or more on this machine.
 * `node --import tsx test/bench/storm/worker-cpu.ts [pairs]` (default 5, about 20 s a pair).
 */
const pairs = Math.max(1, Number(process.argv[2] ?? 5));
const ratios: number[] = [];
for (let i = 1; i <= pairs; i++) {
  const plain = await oneStorm({ ...FIRST_STORM, drivers: false });
  const drivers = await oneStorm(FIRST_STORM);
  const [p, d] = [plain.workerCpuMsPerDigest, drivers.workerCpuMsPerDigest];
  if (p === undefined || d === undefined || plain.delivered !== 2000 || drivers.delivered !== 2000)
    throw new Error(`pair ${i}: a storm did not deliver every digest or its CPU was not read`);
  ratios.push(d / p);
  process.stdout.write(
    `pair ${i}: plain ${p} ms, drivers ${d} ms per digest: ${round(d / p)} × (digests/s ${plain.digestsPerSec} / ${drivers.digestsPerSec})\n`,
  );
}
const median = quantile(ratios, 0.5);
const within = ratios.filter((r) => r <= 1.5).length;
process.stdout.write(
  `worker CPU with drivers / without: median ${round(median)} × over ${pairs} pairs (${within} within 1.5 ×; ${ratios.map((r) => round(r)).join(", ")})\n`,
);
