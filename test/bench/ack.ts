import type { Child } from "./child.ts";
import { type CpuShare, watchCpu } from "./cpu-watch.ts";
import type { OpenLoopArgs, OpenLoopResult, Target } from "./slash-sender.ts";
import { round } from "./stats.ts";

/** One rate: the bare Bolt app and the product, back to back in the same run. */
export interface AckRow {
  rate: number;
  bare: OpenLoopResult;
  app: OpenLoopResult;
  /** app p99 / bare p99 */
  ratioP99: number;
  ratioP50: number;
  /** Machine CPU while each ran (other processes included): context for noisy figures. */
  cpu: { bare: CpuShare; app: CpuShare };
  /** CPU of the process serving them (this one) per command, ms: the work each command costs. */
  cpuMsPerCommand: { bare: number; app: number };
  /** p99 of every repetition; the row shows the median one, so one burst of other work on the machine does not decide it. */
  p99Runs: { bare: number[]; app: number[] };
}

export interface AckOptions {
  sender: Child;
  app: Target;
  bare: Target;
  rates: number[];
  durationMs: number;
  /** Bare/app pairs per rate up to 500/s, back to back [3]. */
  repeats?: number;
  /** The command text: a real digest, so the work after each ack competes with the next acks. */
  text: string;
}

const run = (sender: Child, a: OpenLoopArgs) => sender.call<OpenLoopResult>("openLoop", a);

interface Watched {
  result: OpenLoopResult;
  cpu: CpuShare;
  msPerCommand: number;
}

/** The run with the median p99. */
function median(runs: Watched[]): Watched {
  const sorted = [...runs].sort((a, b) => a.result.ackMs.p99 - b.result.ackMs.p99);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Watched;
}

async function watched(sender: Child, a: OpenLoopArgs): Promise<Watched> {
  const w = watchCpu();
  const own = process.cpuUsage();
  const result = await run(sender, a);
  const used = process.cpuUsage(own);
  return { result, cpu: w.stop(), msPerCommand: round((used.user + used.system) / 1000 / result.sent, 2) };
}

/**
 * Warms both servers up (JIT, sockets, caches: 400 commands each, as a running server would be),
 * then measures each rate on the bare app and on ours.
 */
export async function measureAck(o: AckOptions): Promise<AckRow[]> {
  // The bare app never answers on response_url: nothing to wait for. The app's runs wait for every
  // digest, so each run starts with no digest work left over from the one before.
  const warm = { rate: 200, durationMs: 2_000, text: o.text };
  await run(o.sender, { ...o.bare, ...warm, replyGraceMs: 0 });
  await run(o.sender, { ...o.app, ...warm, replyGraceMs: 60_000 });
  const rows: AckRow[] = [];
  for (const rate of o.rates) {
    const args = { rate, durationMs: o.durationMs, text: o.text };
    const bareRuns: Watched[] = [];
    const appRuns: Watched[] = [];
    // Past what one process can serve (1,000/s here) every run saturates; once is enough there.
    const repeats = rate > 500 ? 1 : (o.repeats ?? 3);
    for (let i = 0; i < repeats; i++) {
      bareRuns.push(await watched(o.sender, { ...o.bare, ...args, replyGraceMs: 0 }));
      appRuns.push(await watched(o.sender, { ...o.app, ...args, replyGraceMs: 60_000 }));
    }
    const bare = median(bareRuns);
    const app = median(appRuns);
    rows.push({
      rate,
      bare: bare.result,
      app: app.result,
      cpu: { bare: bare.cpu, app: app.cpu },
      cpuMsPerCommand: { bare: bare.msPerCommand, app: app.msPerCommand },
      p99Runs: { bare: bareRuns.map((r) => r.result.ackMs.p99), app: appRuns.map((r) => r.result.ackMs.p99) },
      ratioP99: round(app.result.ackMs.p99 / Math.max(bare.result.ackMs.p99, 0.01)),
      ratioP50: round(app.result.ackMs.p50 / Math.max(bare.result.ackMs.p50, 0.01)),
    });
  }
  return rows;
}
