import type { Fault, RunResult } from "../../partitions/scenario.ts";

/** What one slot of the partition runs came to: its result, or why it failed. */
export type SlotOutcome =
  | { run: number; world: number; wallSec: number; result: RunResult }
  | { run: number; world: number; wallSec: number; fault: Fault; minReplicas: 0 | 1; failed: string };

const seconds = (x: number | null | undefined) => (x === null || x === undefined ? "-" : x.toFixed(1));

/** One line per slot, printed as it ends. */
export function outcomeLine(o: SlotOutcome): string {
  const head = `run ${o.run} (world ${o.world})`;
  if ("failed" in o)
    return `${head} ${o.fault} min-replicas=${o.minReplicas}: FAILED ${o.failed} [${o.wallSec.toFixed(0)} s]`;
  const r = o.result;
  return `${head} ${r.fault} min-replicas=${r.minReplicas}: lost ${r.lost}, twice ${r.duplicated}, recovery ${seconds(r.recoverySec)} s, last ${seconds(r.lastSec)} s, drained ${seconds(r.drainedSec)} s, commands ${r.answered}/${r.commands} answered (${r.answeredTwice} shown twice) [${o.wallSec.toFixed(0)} s; ${r.notes.join("; ")}]`;
}

/** The lower median (an observed value, not an average of two). */
function median(xs: number[]): number | undefined {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

const sum = (rs: RunResult[], f: (r: RunResult) => number) => rs.reduce((t, r) => t + f(r), 0);

/**
 * The table of every slot, one row per fault and min-replicas-to-write, in the order asked for.
 * Recovery is over the slots that had something left to deliver when the fault took effect; a slot
 * that failed (the harness, not the app: the deployment did not settle, a process did not start) is
 * counted apart and in none of the figures.
 */
export function faultTable(outcomes: SlotOutcome[], faults: Fault[], mins: (0 | 1)[]): string {
  const lines = [
    "| fault | min-replicas-to-write | runs (failed) | digests a run | lost (total) | posted twice (total) | recovery s (median, max) | last post s (median) | drained s (median, max) | commands answered (shown twice) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const fault of faults)
    for (const minReplicas of mins) {
      const mine = outcomes.filter((o) =>
        "failed" in o
          ? o.fault === fault && o.minReplicas === minReplicas
          : o.result.fault === fault && o.result.minReplicas === minReplicas,
      );
      if (!mine.length) continue;
      const rs = mine.flatMap((o) => ("result" in o ? [o.result] : []));
      const failed = mine.length - rs.length;
      const recovery = rs.flatMap((r) => (r.recoverySec === null ? [] : [r.recoverySec]));
      const last = rs.flatMap((r) => (r.lastSec === null ? [] : [r.lastSec]));
      const drained = rs.map((r) => r.drainedSec);
      const finite = drained.flatMap((d) => (d === null ? [] : [d]));
      const drainedMax = drained.includes(null) ? "not drained" : seconds(Math.max(...finite));
      lines.push(
        `| ${fault} | ${minReplicas} | ${rs.length}${failed ? ` (${failed})` : ""} | ${rs[0]?.digests ?? "-"} | ${sum(rs, (r) => r.lost)} | ${sum(rs, (r) => r.duplicated)} | ${seconds(median(recovery))}, ${recovery.length ? seconds(Math.max(...recovery)) : "-"} | ${seconds(median(last))} | ${seconds(median(finite))}, ${finite.length ? drainedMax : "-"} | ${sum(rs, (r) => r.answered)} of ${sum(rs, (r) => r.commands)} (${sum(rs, (r) => r.answeredTwice)}) |`,
      );
    }
  return lines.join("\n");
}
