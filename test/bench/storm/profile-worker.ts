import { round } from "../stats.ts";
import { FIRST_STORM, oneStorm } from "./one-storm.ts";

/**
 * One storm without its bare loop, for finding where the worker's CPU goes:
 * `node --import tsx test/bench/storm/profile-worker.ts [subscriptions] [workspaces] [per channel] [drivers|plain] [off|on] [own|one]`
 * (defaults: the quick bench's first storm, 2,000 / 200 / 1, drivers on, charts off; `1000 5 1 drivers on` is
 * the charts section's storm with the defaults; `one` gives every workspace the same API key). Prints digests/s, the worker's peak RSS and, per digest, the
 * CPU of the worker and of the outside services' process (emulator and Slack stand-in) from the set-up's end (the slot's warm-up before the fire included); with BENCH_PROFILE_CHILDREN=1 every child writes a CPU profile into
 * /tmp/bench-prof (the worker's is the one with our src/jobs frames). Also prints how many digests
 * went out in each second after the fire, which shows a slow start (drivers of many accounts at once)
 * apart from the steady rate, and the analytics emulator's requests and bytes per GraphQL operation
 * (the drivers' slices are `DriverSlices`).
 */
const [
  subs = String(FIRST_STORM.subscriptions),
  workspaces = String(FIRST_STORM.workspaces),
  perChannel = String(FIRST_STORM.perChannel),
  mode = "drivers",
  charts = "off",
  keys = "own",
] = process.argv.slice(2);
const result = await oneStorm({
  subscriptions: Number(subs),
  workspaces: Number(workspaces),
  perChannel: Number(perChannel),
  drivers: mode !== "plain",
  charts: charts === "on" ? "on" : "off",
  oneKey: keys === "one",
});
const perSecond = new Map<number, number>();
for (const at of Object.values(result.firstPostBy ?? {})) {
  const s = Math.floor((at - result.firedAt) / 1000);
  perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
}
const seconds = [...perSecond.keys()].sort((a, b) => a - b);
const operations = Object.entries(result.byOperation)
  .map(([op, o]) => `${op} ${o.requests} (${round(o.bytes / 1024, 1)} KiB)`)
  .join(" · ");
process.stdout.write(`per second: ${seconds.map((s) => `${s}s ${perSecond.get(s)}`).join(" · ")}\n`);
process.stdout.write(`analytics requests by operation (all of the run): ${operations}\n`);
process.stdout.write(
  `${mode}: ${result.delivered}/${subs} delivered in ${round(result.timeToAllMs / 1000, 1)} s, ${result.digestsPerSec} digests/s, worker ${result.workerCpuMsPerDigest} ms CPU per digest, peak RSS ${result.workerPeakRssMb} MB, outside services ${result.servicesCpuMsPerDigest ?? "–"} ms, machine CPU ${result.cpu.machinePct} % (others ${result.cpu.othersPct} %)\n`,
);
