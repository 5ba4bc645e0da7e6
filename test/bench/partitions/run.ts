import { namespacesUnavailable } from "../../partitions/netns.ts";
import { FAULTS, type Fault, type RunResult, startWorld, type World } from "../../partitions/scenario.ts";

/**
 * The partition runs: each fault N times, with and without min-replicas-to-write, on a Sentinel
 * deployment spread over network namespaces (test/partitions/). The runs share one deployment and
 * app (a slot each: every subscription's next period), which is built again when a slot fails.
 * Prints a line per run as it ends and the table at the end. Needs root; one run at a time per
 * machine (each start removes what earlier runs left behind).
 *   node --import tsx test/bench/partitions/run.ts [runs=20] [digests=500] [faults=all] [minReplicas=0,1] [confirm=auto]
 * e.g. node --import tsx test/bench/partitions/run.ts 3 500 split-brain,pause 0,1
 */

const [runsArg = "20", digestsArg = "500", faultsArg = "all", minArg = "0,1", confirmArg = "auto"] =
  process.argv.slice(2);
const runs = Number(runsArg);
const digests = Number(digestsArg);
const faults = (faultsArg === "all" ? [...FAULTS] : faultsArg.split(",")) as Fault[];
const mins = minArg.split(",").map(Number) as (0 | 1)[];
const confirm = confirmArg as "auto" | "off";
const why = namespacesUnavailable();
if (why || !Number.isInteger(runs) || runs < 1 || faults.some((f) => !FAULTS.includes(f))) {
  process.stderr.write(`${why ?? "usage: run.ts [runs] [digests] [faults|all] [minReplicas] [confirm]"}\n`);
  process.exit(2);
}

const results: RunResult[] = [];
let world: World | undefined;
for (let r = 1; r <= runs; r++)
  for (const fault of faults)
    for (const minReplicas of mins) {
      const started = Date.now();
      try {
        world ??= await startWorld({ digests, confirm });
        const res = await world.slot({ fault, minReplicas });
        results.push(res);
        process.stdout.write(
          `run ${r} ${fault} min-replicas=${minReplicas}: lost ${res.lost}, twice ${res.duplicated}, recovery ${res.recoverySec?.toFixed(1) ?? "-"} s, last ${res.lastSec?.toFixed(1) ?? "-"} s, commands ${res.answered}/${res.commands} answered (${res.answeredTwice} shown twice) [${((Date.now() - started) / 1000).toFixed(0)} s; ${res.notes.join("; ")}]\n`,
        );
      } catch (err) {
        process.stdout.write(
          `run ${r} ${fault} min-replicas=${minReplicas}: FAILED ${(err as Error).message}\n`,
        );
      }
    }

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] as number) : Number.NaN;
};
process.stdout.write(
  `\n| fault | min-replicas-to-write | runs | digests a run | lost (total) | posted twice (total) | recovery s (median, max) | last post s (median) | commands answered (shown twice) |\n|---|---|---|---|---|---|---|---|---|\n`,
);
for (const fault of faults)
  for (const minReplicas of mins) {
    const rs = results.filter((x) => x.fault === fault && x.minReplicas === minReplicas);
    if (!rs.length) continue;
    const rec = rs.map((x) => x.recoverySec ?? Number.NaN);
    process.stdout.write(
      `| ${fault} | ${minReplicas} | ${rs.length} | ${rs[0]?.digests} | ${rs.reduce((t, x) => t + x.lost, 0)} | ${rs.reduce((t, x) => t + x.duplicated, 0)} | ${median(rec).toFixed(1)}, ${Math.max(...rec).toFixed(1)} | ${median(rs.map((x) => x.lastSec ?? Number.NaN)).toFixed(1)} | ${rs.reduce((t, x) => t + x.answered, 0)} of ${rs.reduce((t, x) => t + x.commands, 0)} (${rs.reduce((t, x) => t + x.answeredTwice, 0)}) |\n`,
    );
  }
process.stdout.write(`\nconfirm=${confirm}; ${new Date().toISOString()}\n`);
process.exit(0);
