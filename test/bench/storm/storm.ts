import { readFileSync } from "node:fs";
import { digestMessage } from "../../../templates/digest-message.ts";
import { procfileNodeFlags } from "../../setup/product-build.ts";
import { type Child, spawnChild } from "../child.ts";
import { type CpuShare, watchCpu } from "../cpu-watch.ts";
import { scheduledView } from "../sample-digest.ts";
import { round, sleep } from "../stats.ts";
import type { BareResult, BareRun } from "./bare-loop.ts";
import { type MemoryFigures, measureMemory, usedMemory } from "./memory.ts";
import type { SlackTally, SlackTallyWithIds } from "./services.ts";
import { type BenchWorkerOptions, benchToken } from "./worker-child.ts";
import { createSubscriptions, type World } from "./world.ts";

/** Levers a fault gets on the running storm. */
export interface StormControl {
  world: World;
  /** SIGKILLs the worker process; `restart` starts a new one (its start-up reconcile included). */
  killWorker(): Promise<void>;
  startWorker(): Promise<void>;
  tally(): Promise<SlackTally>;
}

export interface StormOptions {
  /** A world without subscriptions yet (buildWorld). */
  world: World;
  /** Measure Redis bytes per subscription before the storm. */
  memory?: boolean;
  worker: BenchWorkerOptions;
  /** Give up waiting for the storm after this long. */
  timeoutMs: number;
  /** Stop when nothing changed for this long and no job is waiting, running or due soon. */
  settleMs?: number;
  /** Each runs once when this share of the digests is out (0 = at the start): faults. */
  faults?: { at: number; run(c: StormControl): Promise<void> }[];
  /**
   * Runs alongside the storm from its fire (ack latency under load); the storm's worker processes stop
   * once it has finished, so it may go on past the slot's end with them running.
   */
  alongside?: (c: AlongsideContext) => Promise<unknown>;
  /** Worker processes [1]. */
  workers?: number;
  /** Stop once this many digests are out [all of them]. */
  stopAt?: number;
  /**
   * Time allowed past the set-up's expected length before the fire [400 ms]: more where other runs
   * load the machine while this one sets up (the fault runs), so it does not overrun and build again.
   */
  setupMarginMs?: number;
}

/** What a storm tells the work running alongside it. */
export interface AlongsideContext {
  /** Resolves when the storm has ended: every digest out, nothing more happening, or the time limit. */
  ended: Promise<void>;
  /** The worker processes running now. */
  workerPids(): number[];
}

export interface StormResult {
  subscriptions: number;
  /** From "all due" to the last digest posted, ms. */
  timeToAllMs: number;
  /** From "all due" until half, 90 % and 99 % of the subscriptions had their digest (null: never). */
  timeToShareMs: { p50: number | null; p90: number | null; p99: number | null };
  digestsPerSec: number;
  delivered: number;
  duplicates: number;
  lost: number;
  failureNotices: number;
  failedJobs: number;
  rateLimited429: number;
  slackErrors: Record<string, number>;
  /** files.* calls the storm made (uploads, files.info). */
  filesCalls?: number;
  /** The worker process: start-up (scheduler reconcile) and peak RSS. */
  workerStartMs: number[];
  workerPeakRssMb: number;
  /** The worker processes' CPU from the set-up's end (the slot's warm-up before the fire included) to the end, per digest delivered (ms; 10 ms resolution overall). */
  workerCpuMsPerDigest?: number;
  /** The outside services' process (emulator and Slack stand-in) over the same window, per digest (ms). */
  servicesCpuMsPerDigest?: number;
  timedOut: boolean;
  /** Creating the subscriptions (records + schedulers), ms. */
  createMs: number;
  /** Always false in a result: a run whose set-up overran its fire time is thrown away and built again. */
  setupOverran: boolean;
  memory?: MemoryFigures;
  /** The same, right after the storm (claims written, caches still warm). */
  memoryAfter?: MemoryFigures;
  /** When the subscriptions fell due (epoch ms). */
  firedAt: number;
  /** INFO used_memory (every master) right before the subscriptions were made, bytes. */
  redisUsedBefore?: number;
  /** First post time of each delivery (`<subId>/<period>` → epoch ms). */
  firstPostBy?: Record<string, number>;
  /** Digest posts per channel, each post counted (duplicates too). */
  postsByChannel?: Record<string, number>;
  /** Machine CPU from the fire time to the end (other processes included). */
  cpu: CpuShare;
  alongside?: unknown;
}

/** Creating the subscriptions took past their fire time, so some would fire a day later: build again. */
export class SetupOverrun extends Error {}

/**
 * Set-up time per subscription seen so far (creating it; measuring the memory), to pick a fire time
 * just after set-up ends: every second of margin is a second the bench sits idle, once per storm.
 * The first guesses are about twice what a 2-core machine measured (0.13 ms per subscription for
 * 2,000, 0.1 ms for 10,000, both steps); a storm whose set-up overruns them builds its world again with the
 * figures it measured.
 */
const setupMsPerSub = { create: 0.25, memory: 0.05 };

/** CPU ticks (user + system, 1/100 s each) a process has used so far, or null once it is gone. */
function cpuTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

/** The peak resident set (VmHWM) of a process so far, MB; 0 once it is gone. */
export function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** Due jobs still to run: waiting, active, prioritized, or delayed to within the next five minutes (retries). */
async function pendingJobs(world: World): Promise<number> {
  const q = `${world.queuePrefix}:${world.queueName}`;
  const soon = (Date.now() + 300_000) * 0x1000;
  const [wait, active, prio, delayed] = await Promise.all([
    world.conn.llen(`${q}:wait`),
    world.conn.llen(`${q}:active`),
    world.conn.zcard(`${q}:prioritized`),
    world.conn.zcount(`${q}:delayed`, 0, soon),
  ]);
  return wait + active + prio + delayed;
}

/**
 * One storm: start the worker, make every subscription's next job due at once, and watch Slack until
 * every digest is out (or nothing more happens). Counts come from what the stand-in received.
 */
export async function runStorm(o: StormOptions): Promise<StormResult> {
  const { world } = o;
  const n = world.spec.subscriptions;
  let workers: Child[] = [];
  let peakRss = 0;
  const startMs: number[] = [];
  const startWorker = async () => {
    for (let i = 0; i < (o.workers ?? 1); i++) {
      // Started as the Procfile starts a worker (its Node flags): the deployed shape.
      const w = spawnChild(
        new URL("./worker-child.ts", import.meta.url),
        world.env,
        procfileNodeFlags("worker"),
      );
      workers.push(w);
      startMs.push((await w.call<{ startMs: number }>("start", o.worker)).startMs);
    }
  };
  // Per worker pid: its ticks at the fire time (or its start, if later) and the last ones seen.
  const ticks = new Map<number, { from: number; last: number }>();
  let firing = false;
  const rssAll = () => {
    for (const w of workers) {
      peakRss = Math.max(peakRss, peakRssMb(w.pid));
      const now = cpuTicks(w.pid);
      if (now === null) continue;
      const t = ticks.get(w.pid) ?? { from: firing ? 0 : now, last: now };
      t.last = now;
      if (!firing) t.from = now;
      ticks.set(w.pid, t);
    }
  };
  const control: StormControl = {
    world,
    async killWorker() {
      rssAll();
      for (const w of workers) await w.kill("SIGKILL");
      workers = [];
    },
    startWorker,
    tally: () => world.services.call<SlackTally>("tally", false),
  };
  // The worker runs before the schedules exist, as in production: nothing is due while it starts.
  await startWorker();
  // The worker's lookahead warms the slot from this long before the fire, so the set-up ends
  // before that; the lead is also the set-up's margin when it is the longer.
  const warmLeadMs = Number(world.env.SLOT_WARM_LEAD_SECONDS ?? 15) * 1000;
  const setupMs =
    n * (setupMsPerSub.create + (o.memory ? setupMsPerSub.memory : 0)) * 1.5 +
    Math.max(o.setupMarginMs ?? 400, warmLeadMs);
  const fireAt = new Date(Math.ceil((Date.now() + setupMs) / 1000) * 1000);
  const memoryBefore = await usedMemory(world.conn);
  const created = performance.now();
  await createSubscriptions(world, fireAt);
  const createMs = Math.round(performance.now() - created);
  setupMsPerSub.create = Math.max(0.1, createMs / n);
  const measured = performance.now();
  const memory = o.memory ? await worldMemory(world, memoryBefore) : undefined;
  if (o.memory) setupMsPerSub.memory = Math.max(0.02, (performance.now() - measured) / n);
  const setupOverran = Date.now() > fireAt.getTime() - 100;
  if (setupOverran) {
    for (const w of workers) await w.kill("SIGKILL");
    throw new SetupOverrun(`creating ${n} subscriptions took ${createMs} ms, past their fire time`);
  }
  // CPU is counted from here, the lookahead's warm-up included: work done before the fire is work.
  rssAll();
  firing = true;
  const servicesFrom = cpuTicks(world.services.pid);
  await sleep(fireAt.getTime() - Date.now());
  const t0 = fireAt.getTime();
  const cpu = watchCpu();
  let endStorm = () => {};
  const ended = new Promise<void>((resolve) => {
    endStorm = resolve;
  });
  const alongside = o.alongside?.({ ended, workerPids: () => workers.map((w) => w.pid) });
  // Its failure is heard where it is awaited, after the storm; a storm that fails first leaves it unheard.
  void alongside?.catch(() => undefined);
  const faults = [...(o.faults ?? [])].sort((a, b) => a.at - b.at);
  let timedOut = false;
  try {
    let last: SlackTally = await control.tally();
    let lastChange = Date.now();
    for (;;) {
      await sleep(250);
      rssAll();
      const t = await control.tally();
      if (t.calls !== last.calls) lastChange = Date.now();
      last = t;
      while (faults[0] && t.uniqueDeliveries >= faults[0].at * n) {
        await faults.shift()?.run(control);
        lastChange = Date.now();
      }
      const faultsDone = faults.length === 0;
      if (faultsDone && t.uniqueDeliveries >= (o.stopAt ?? n)) break;
      if (faultsDone && Date.now() - lastChange > (o.settleMs ?? 5_000) && (await pendingJobs(world)) === 0)
        break;
      if (Date.now() - t0 > o.timeoutMs) {
        timedOut = true;
        break;
      }
    }
  } finally {
    // What runs alongside hears the storm is over, however it ended.
    endStorm();
  }
  // Late duplicates would show up now: give retries and stalled jobs a moment.
  await sleep(1_000);
  const cpuShare = cpu.stop();
  const servicesTo = cpuTicks(world.services.pid);
  const final = await world.services.call<SlackTallyWithIds>("tally", true);
  // CPU ticks (10 ms each) as ms per digest delivered.
  const perDigest = (ticks: number) => round((ticks * 10) / Math.max(1, final.uniqueDeliveries), 2);
  const sortedPosts = final.firstPosts.sort((a, b) => a - b);
  const timeTo = (q: number) => {
    const at = sortedPosts[Math.max(0, Math.ceil(q * n) - 1)];
    return at === undefined || sortedPosts.length < Math.ceil(q * n) ? null : at - t0;
  };
  const failedJobs = await world.runtime.queue.getFailedCount();
  const alongsideResult = alongside ? await alongside : undefined;
  rssAll();
  for (const w of workers) await w.call("close").catch(() => undefined);
  for (const w of workers) await w.kill();
  const memoryAfter = o.memory ? await worldMemory(world, memoryBefore) : undefined;
  const timeToAllMs = (final.lastPostAt ?? Date.now()) - t0;
  return {
    subscriptions: n,
    timeToAllMs,
    timeToShareMs: { p50: timeTo(0.5), p90: timeTo(0.9), p99: timeTo(0.99) },
    digestsPerSec: round(final.uniqueDeliveries / Math.max(0.001, timeToAllMs / 1000), 1),
    delivered: final.uniqueDeliveries,
    duplicates: final.digestPosts - final.uniqueDeliveries,
    lost: n - final.uniqueDeliveries,
    failureNotices: final.failureNotices,
    failedJobs,
    rateLimited429: final.rateLimited,
    slackErrors: final.errors,
    filesCalls: final.filesCalls ?? 0,
    workerStartMs: startMs,
    workerPeakRssMb: round(peakRss, 1),
    workerCpuMsPerDigest: perDigest([...ticks.values()].reduce((a, t) => a + t.last - t.from, 0)),
    servicesCpuMsPerDigest:
      servicesFrom === null || servicesTo === null ? undefined : perDigest(servicesTo - servicesFrom),
    timedOut,
    createMs,
    setupOverran,
    memory,
    memoryAfter,
    firedAt: t0,
    redisUsedBefore: memoryBefore,
    firstPostBy: final.firstPostBy,
    postsByChannel: final.postsByChannel,
    cpu: cpuShare,
    alongside: alongsideResult,
  };
}

/** A result without its per-delivery and per-channel lists (kept only while a section needs them). */
export function slim(r: StormResult): StormResult {
  const { firstPostBy: _f, postsByChannel: _c, ...rest } = r;
  return rest;
}

/** The same digests from the bare loop (2 HTTP calls each) at `concurrency`, against the same services. */
export async function runBareLoop(
  world: World,
  concurrency: number,
  /** The digest the bare loop posts [a text digest of a storm workspace's account]. */
  sampleMessage?: { text: string; blocks: unknown[] },
): Promise<BareResult> {
  await world.services.call("resetCalls");
  const bare = spawnChild(new URL("./bare-loop.ts", import.meta.url));
  try {
    const sample = world.subs[0];
    if (!sample) throw new Error("no subscriptions");
    const message =
      sampleMessage ?? digestMessage(scheduledView(sample.apiKey, `last${7 + (world.subs.length % 7)}d`));
    const run: BareRun = {
      graphqlUrl: world.urls.graphqlUrl,
      apiUrl: world.urls.apiUrl,
      concurrency,
      message: { text: message.text ?? "", blocks: message.blocks ?? [] },
      items: world.subs.map((s) => ({
        apiKey: s.apiKey,
        token: benchToken(s.ref),
        channel: s.channelId,
        from: s.from,
        to: s.to,
      })),
    };
    return await bare.call<BareResult>("run", run);
  } finally {
    await bare.kill();
  }
}

/** Redis bytes per subscription right after creating them (before they fire). */
function worldMemory(world: World, before: number): Promise<MemoryFigures> {
  return measureMemory({
    redis: world.conn,
    prefix: world.prefix,
    queueKeyPrefix: `${world.queuePrefix}:${world.queueName}`,
    subscriptions: world.subs.length,
    before,
  });
}

/** Runs `run` on a fresh world from `build`, once more if set-up overran the fire time (a busy machine). */
export async function withFreshWorld<T>(
  build: () => Promise<World>,
  run: (w: World) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const world = await build();
    try {
      return await run(world);
    } catch (err) {
      if (!(err instanceof SetupOverrun) || attempt >= 2) throw err;
    } finally {
      await world.close();
    }
  }
}
