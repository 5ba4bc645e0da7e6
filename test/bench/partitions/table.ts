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
  return `${head} ${r.fault} min-replicas=${r.minReplicas}: lost ${r.lost}, twice ${r.duplicated}${r.late.map((l) => ` (an earlier ${l.fault} min-replicas=${l.minReplicas} slot since: ${l.duplicated} twice, ${l.delivered} delivered late)`).join("")}, recovery ${seconds(r.recoverySec)} s, last ${seconds(r.lastSec)} s, drained ${seconds(r.drainedSec)} s, commands ${r.answered}/${r.commands} answered (${r.answeredTwice} shown twice) [${o.wallSec.toFixed(0)} s; ${r.notes.join("; ")}]`;
}

/** The lower median (an observed value, not an average of two). */
function median(xs: number[]): number | undefined {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

const sum = (rs: RunResult[], f: (r: RunResult) => number) => rs.reduce((t, r) => t + f(r), 0);

/**
 * Lost and posted twice as counted in their slots, with what a later slot of the same world found
 * for them (a rerun that outlived its slot's wait), in the row of the slot they belong to.
 */
function lostAndTwice(rs: RunResult[], all: RunResult[], fault: Fault, minReplicas: 0 | 1): [string, string] {
  const late = all.flatMap((r) => r.late).filter((l) => l.fault === fault && l.minReplicas === minReplicas);
  const delivered = late.reduce((t, l) => t + l.delivered, 0);
  const duplicated = late.reduce((t, l) => t + l.duplicated, 0);
  return [
    `${sum(rs, (r) => r.lost)}${delivered ? ` (${delivered} of them posted later)` : ""}`,
    `${sum(rs, (r) => r.duplicated)}${duplicated ? ` + ${duplicated} found later` : ""}`,
  ];
}

/**
 * The table of every slot, one row per fault and min-replicas-to-write, in the order asked for.
 * Recovery is over the slots that posted after the fault took effect; a slot that failed (the
 * harness, not the app: the deployment did not settle, a process did not start) is counted apart and
 * in none of the figures.
 */
export function faultTable(outcomes: SlotOutcome[], faults: Fault[], mins: (0 | 1)[]): string {
  const lines = [
    "| fault | min-replicas-to-write | runs (failed) | digests a run | lost (total) | posted twice (total) | recovery s (median, max) | last post s (median) | drained s (median, max) | commands answered (shown twice) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const results = outcomes.flatMap((o) => ("result" in o ? [o.result] : []));
  for (const fault of faults)
    for (const minReplicas of mins) {
      const mine = outcomes.filter((o) =>
        "failed" in o
          ? o.fault === fault && o.minReplicas === minReplicas
          : o.result.fault === fault && o.result.minReplicas === minReplicas,
      );
      if (!mine.length) continue;
      const rs = mine.flatMap((o) => ("result" in o ? [o.result] : []));
      const [lost, twice] = lostAndTwice(rs, results, fault, minReplicas);
      const failed = mine.length - rs.length;
      const recovery = rs.flatMap((r) => (r.recoverySec === null ? [] : [r.recoverySec]));
      const last = rs.flatMap((r) => (r.lastSec === null ? [] : [r.lastSec]));
      // A slot whose jobs outlived the wait counts as the longest.
      const drained = rs.map((r) => r.drainedSec ?? Number.POSITIVE_INFINITY);
      const drainedText = (x: number | undefined) =>
        x === Number.POSITIVE_INFINITY ? "past the wait" : seconds(x);
      lines.push(
        `| ${fault} | ${minReplicas} | ${rs.length}${failed ? ` (${failed})` : ""} | ${rs[0]?.digests ?? "-"} | ${lost} | ${twice} | ${seconds(median(recovery))}, ${recovery.length ? seconds(Math.max(...recovery)) : "-"} | ${seconds(median(last))} | ${drainedText(median(drained))}, ${drainedText(Math.max(...drained))} | ${sum(rs, (r) => r.answered)} of ${sum(rs, (r) => r.commands)} (${sum(rs, (r) => r.answeredTwice)}) |`,
      );
    }
  return lines.join("\n");
}
