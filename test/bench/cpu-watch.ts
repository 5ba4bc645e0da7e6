import { readdirSync, readFileSync } from "node:fs";
import { round } from "./stats.ts";

/**
 * How busy the machine was while something ran, and how much of that was this bench's own process
 * tree (the app, its children, their Redis servers). The rest is other work on the machine, which
 * a shared 2-core box has: the report shows it beside latency figures so a noisy run reads as one.
 */
export interface CpuShare {
  /** Percent of all cores busy. */
  machinePct: number;
  /** Percent of all cores used by the bench's process tree. */
  benchPct: number;
  /** machinePct − benchPct: other processes. */
  othersPct: number;
}

function machineTicks(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
  const f = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function treeTicks(root: number): Map<number, number> {
  const parent = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(f[1]));
      ticks.set(Number(name), Number(f[11]) + Number(f[12]));
    } catch {
      // the process ended while we looked
    }
  }
  const mine = new Map<number, number>();
  for (const [pid, t] of ticks) {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        mine.set(pid, t);
        break;
      }
    }
  }
  return mine;
}

/** Starts watching; `stop()` returns the shares since then. Zeros where /proc is unavailable. */
export function watchCpu(): { stop(): CpuShare } {
  try {
    const m0 = machineTicks();
    const t0 = treeTicks(process.pid);
    return {
      stop() {
        const m1 = machineTicks();
        const t1 = treeTicks(process.pid);
        let ours = 0;
        for (const [pid, t] of t1) ours += t - (t0.get(pid) ?? 0);
        const total = Math.max(1, m1.total - m0.total);
        const machinePct = round(((m1.busy - m0.busy) / total) * 100, 0);
        const benchPct = Math.min(machinePct, round((ours / total) * 100, 0));
        return { machinePct, benchPct, othersPct: round(machinePct - benchPct, 0) };
      },
    };
  } catch {
    return { stop: () => ({ machinePct: 0, benchPct: 0, othersPct: 0 }) };
  }
}
