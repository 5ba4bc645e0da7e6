import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { MAX_WORLD, namespacesUnavailable } from "../../partitions/netns.ts";
import { FAULTS, type Fault, SHORT_WAITS, startWorld, type World } from "../../partitions/scenario.ts";
import { faultTable, outcomeLine, type SlotOutcome } from "./table.ts";

/**
 * The partition runs: each fault N times, with and without min-replicas-to-write, on a Sentinel
 * deployment spread over network namespaces (test/partitions/), with the app's production settings.
 * The runs of a world share one deployment and app (a slot each: every subscription's next period),
 * built again when a slot fails. `--parallel K` (or PARTITION_WORLDS=K) runs K worlds side by side,
 * each in a process of its own with namespaces and addresses of its own, run r in world (r-1) mod K.
 * `--until <HH:MM UTC | ISO time>`: no slot starts after it (the table says how many ran).
 * `--first-world N` [0]: worlds N to N+K-1, for a second run beside one using 0 to K-1.
 * `--short-waits`: the short form's waits (test/partitions/partitions.test.ts: a 20 s claim lease,
 * 10 s job locks checked every 5 s, the Marketplace history budget, failovers 20 s apart, four at
 * most) instead of the product's, so a slot's tail takes a minute rather than several.
 * `--settle S`: how long a slot waits after its fault for its last job to end [420]; what a rerun
 * that outlived the wait posts is counted by the world's next slot, in the row of its own. Prints a
 * line per slot as it ends and the table at the end. Needs root.
 *   node --import tsx test/bench/partitions/run.ts [runs=20] [digests=500] [faults=all] [minReplicas=0,1] [confirm=auto] [--parallel K] [--until T] [--settle S] [--first-world N] [--short-waits]
 * e.g. node --import tsx test/bench/partitions/run.ts 3 500 split-brain,pause 0,1 auto --parallel 2
 */

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parallel: { type: "string" },
    until: { type: "string" },
    settle: { type: "string" },
    "first-world": { type: "string" },
    "short-waits": { type: "boolean" },
    // A world's own process (started by the parallel run): its number and the runs it takes.
    world: { type: "string" },
    share: { type: "string" },
  },
});
const [runsArg = "20", digestsArg = "500", faultsArg = "all", minArg = "0,1", confirmArg = "auto"] =
  positionals;
const runs = Number(runsArg);
const digests = Number(digestsArg);
const faults = (faultsArg === "all" ? [...FAULTS] : faultsArg.split(",")) as Fault[];
const mins = minArg.split(",").map(Number) as (0 | 1)[];
const confirm = confirmArg as "auto" | "off";
const worlds = Number(values.parallel ?? process.env.PARTITION_WORLDS ?? "1");
const firstWorld = Number(values["first-world"] ?? "0");
const until = values.until === undefined ? undefined : deadline(values.until);
const settleMs = values.settle === undefined ? undefined : Number(values.settle) * 1000;
const shortWaits = values["short-waits"] === true;

/** `HH:MM` (UTC, today) or an ISO time, as ms. */
function deadline(s: string): number {
  const hhmm = /^(\d\d):(\d\d)$/.exec(s);
  const at = hhmm ? new Date().setUTCHours(Number(hhmm[1]), Number(hhmm[2]), 0, 0) : Date.parse(s);
  if (Number.isNaN(at)) throw new Error(`--until ${s}: HH:MM (UTC) or an ISO time`);
  return at;
}

/**
 * Runs `share` (run numbers) in world `world`, handing each slot's outcome to `emit`. Each world
 * starts its runs at a cell of its own (fault and min-replicas-to-write) and goes round from there,
 * so runs cut short by --until leave every cell with about as many slots.
 */
async function runWorld(
  world: number,
  share: number[],
  emit: (o: SlotOutcome) => void | Promise<void>,
): Promise<void> {
  const cells = faults.flatMap((fault) => mins.map((minReplicas) => ({ fault, minReplicas })));
  const first = Math.floor(((world - firstWorld) * cells.length) / worlds);
  const order = [...cells.slice(first), ...cells.slice(0, first)];
  let w: World | undefined;
  try {
    for (const run of share)
      for (const { fault, minReplicas } of order) {
        if (until !== undefined && Date.now() >= until) return;
        const started = Date.now();
        const wallSec = () => (Date.now() - started) / 1000;
        try {
          w ??= await startWorld({
            world,
            digests,
            confirm,
            ...(shortWaits ? { fast: SHORT_WAITS.fast } : {}),
          });
          const result = await w.slot({
            fault,
            minReplicas,
            settleMs,
            ...(shortWaits ? SHORT_WAITS.slot : {}),
          });
          await emit({ run, world, wallSec: wallSec(), result });
        } catch (err) {
          await emit({
            run,
            world,
            wallSec: wallSec(),
            fault,
            minReplicas,
            failed: (err as Error).message,
          });
          // Whatever the failure left (a server down, a process gone), the next slot starts afresh.
          await w?.close();
          w = undefined;
        }
      }
  } finally {
    await w?.close();
  }
}

/** Starts the process of world firstWorld+k with its share of the runs; resolves when it has exited. */
function startWorldProcess(k: number, share: number[], onOutcome: (o: SlotOutcome) => void) {
  const child: ChildProcess = fork(
    fileURLToPath(import.meta.url),
    [
      ...positionals,
      "--parallel",
      String(worlds),
      "--first-world",
      String(firstWorld),
      "--world",
      String(firstWorld + k),
      "--share",
      share.join(","),
      ...(values.until ? ["--until", values.until] : []),
      ...(values.settle ? ["--settle", values.settle] : []),
      ...(shortWaits ? ["--short-waits"] : []),
    ],
    { stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  child.on("message", (m) => onOutcome(m as SlotOutcome));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited };
}

function machine(): string {
  const tryRun = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: "utf8" }).trim();
    } catch {
      return "?";
    }
  };
  const redis = /v=(\S+)/.exec(tryRun("redis-server", ["--version"]))?.[1] ?? "?";
  return `${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; redis-server ${redis}; commit ${tryRun("git", ["rev-parse", "--short", "HEAD"])}`;
}

const why = namespacesUnavailable();
if (
  why ||
  !Number.isInteger(runs) ||
  runs < 1 ||
  !Number.isInteger(digests) ||
  digests < 1 ||
  !Number.isInteger(worlds) ||
  worlds < 1 ||
  !Number.isInteger(firstWorld) ||
  firstWorld < 0 ||
  firstWorld + worlds > MAX_WORLD + 1 ||
  faults.some((f) => !FAULTS.includes(f)) ||
  mins.some((m) => m !== 0 && m !== 1) ||
  (confirm !== "auto" && confirm !== "off") ||
  (settleMs !== undefined && !(settleMs > 0))
) {
  process.stderr.write(
    `${why ?? "usage: run.ts [runs] [digests] [faults|all] [minReplicas 0,1] [confirm auto|off] [--parallel K] [--until HH:MM] [--settle S] [--first-world N] [--short-waits]"}\n`,
  );
  process.exit(2);
}

if (values.world !== undefined) {
  // A world's process: its outcomes go to the parent; it cleans up and leaves when the parent goes.
  process.on("disconnect", () => process.kill(process.pid, "SIGTERM"));
  const share = (values.share ?? "").split(",").map(Number);
  // Each outcome is handed over before the next slot starts (an exit drops messages not yet sent).
  const send = (o: SlotOutcome) =>
    new Promise<void>((resolve) => process.send?.(o, undefined, {}, () => resolve()));
  await runWorld(Number(values.world), share, send);
  process.exit(0);
}

const started = new Date();
process.stdout.write(
  `${runs} runs of ${faults.join(", ")} × min-replicas ${mins.join(",")}, ${digests} digests a slot, confirm=${confirm}, ${shortWaits ? "the short form's waits" : "the product's waits"}, ${worlds} world(s) side by side (from world ${firstWorld}); ${machine()}; started ${started.toISOString()}\n`,
);
const outcomes: SlotOutcome[] = [];
const onOutcome = (o: SlotOutcome) => {
  outcomes.push(o);
  process.stdout.write(`${outcomeLine(o)}\n`);
};
const all = Array.from({ length: runs }, (_, i) => i + 1);
if (worlds === 1) await runWorld(firstWorld, all, onOutcome);
else {
  const procs = Array.from({ length: Math.min(worlds, runs) }, (_, k) =>
    startWorldProcess(
      k,
      all.filter((r) => (r - 1) % worlds === k),
      onOutcome,
    ),
  );
  // Stopped: each world stops too (and removes what it made); the table shows what had ended.
  for (const sig of ["SIGINT", "SIGTERM"] as const)
    process.on(sig, () => {
      for (const p of procs) p.child.kill(sig);
    });
  const codes = await Promise.all(procs.map((p) => p.exited));
  codes.forEach((code, k) => {
    if (code !== 0) process.stdout.write(`world ${firstWorld + k} exited with ${code}\n`);
  });
}
process.stdout.write(
  `\n${faultTable(outcomes, faults, mins)}\n\nconfirm=${confirm}; ${worlds} world(s); ${started.toISOString()} to ${new Date().toISOString()}\n`,
);
process.exit(0);
