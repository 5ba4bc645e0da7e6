import { quantile, round } from "../stats.ts";
import { FIRST_STORM, type OneStorm, oneStorm } from "./one-storm.ts";

/** One alternated pair: the worker's CPU per digest without drivers, then with. */
export interface WorkerCpuPair {
  plainMs: number;
  driversMs: number;
  ratio: number;
  plainPerSec: number;
  driversPerSec: number;
}

export interface WorkerCpuResult {
  /** The storm each pair ran (drivers on; the plain side with them off). */
  storm: OneStorm;
  pairs: WorkerCpuPair[];
  /** The median of the pairs' ratios (nearest rank). */
  median: number;
}

/**
 * The worker's CPU per delivery with drivers against without (target ≤ 1.5 ×), read the way it is
 * judged: alternated pairs of the quick bench's first storm (each workspace with its own account,
 * charts off), plain first, each storm in a fresh world, in this one process;
 * the verdict is the median of the pairs' ratios, since one pair's ratio moves by a tenth or more on
 * this machine.
 */
export async function measureWorkerCpu(pairs: number, log: (line: string) => void): Promise<WorkerCpuResult> {
  const out: WorkerCpuPair[] = [];
  for (let i = 1; i <= pairs; i++) {
    const plain = await oneStorm({ ...FIRST_STORM, drivers: false });
    const drivers = await oneStorm(FIRST_STORM);
    const [p, d] = [plain.workerCpuMsPerDigest, drivers.workerCpuMsPerDigest];
    const all = FIRST_STORM.subscriptions;
    if (p === undefined || d === undefined || plain.delivered !== all || drivers.delivered !== all)
      throw new Error(`pair ${i}: a storm did not deliver every digest or its CPU was not read`);
    const pair = {
      plainMs: p,
      driversMs: d,
      ratio: round(d / p),
      plainPerSec: plain.digestsPerSec,
      driversPerSec: drivers.digestsPerSec,
    };
    out.push(pair);
    log(
      `  pair ${i}: plain ${p} ms, drivers ${d} ms per digest: ${pair.ratio} × (digests/s ${pair.plainPerSec} / ${pair.driversPerSec})`,
    );
  }
  return {
    storm: FIRST_STORM,
    pairs: out,
    median: quantile(
      out.map((x) => x.ratio),
      0.5,
    ),
  };
}
