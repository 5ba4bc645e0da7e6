import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { SLACK_PACING } from "../../../src/jobs/pacing.ts";
import { buildMix } from "../ack/mix.ts";
import { cpuMs, type Proc, spawnProduct } from "../ack/procs.ts";
import type { RequestSpec } from "../ack/requests.ts";
import { type Child, spawnChild } from "../child.ts";
import type { OpenLoopArgs, OpenLoopResult } from "../slash-sender.ts";
import { quantile, round, sleep } from "../stats.ts";
import { type FamilyUsage, memoryByFamily, usedMemory } from "../storm/memory.ts";
import {
  type AlongsideContext,
  peakRssMb,
  runStorm,
  type StormResult,
  slim,
  withFreshWorld,
} from "../storm/storm.ts";
import type { World } from "../storm/world.ts";
import { buildMondayWorld, type MondayWorld } from "./world.ts";

/**
 * Monday 09:00 for a large install: one slot of `subs` subscriptions with the defaults (mondayWorld),
 * two worker processes, and a web process answering the ack section's realistic mix at `mixRate`
 * requests/s from the fire to the last digest. Measured: time to the first and the last digest,
 * each workspace's first, lost and duplicated (per delivery and per channel at the Slack stand-in),
 * the web's ack and reply times, each process's CPU over the slot, worker RSS and Redis memory at its
 * peak and `holdMs` after the slot (by family of keys); then two web processes at `webDouble`'s rate.
 * The one-against-two worker pair runs `scalingSubs` with one worker (and with two, unless the slot
 * itself is that size).
 */

export interface MondayPlan {
  /** The slot's subscriptions (about n/20 workspaces, n/100 accounts), two worker processes. */
  subs: number;
  /** The one-against-two worker pair's size; 0: no pair. */
  scalingSubs: number;
  /** Interactive requests per second at the web process, from the fire to the last digest. */
  mixRate: number;
  /** How long after the slot's last digest Redis memory is read. */
  holdMs: number;
  /** Two web processes (WEB_CONCURRENCY=2) after the hold, this rate this long. */
  webDouble: { rate: number; durationMs: number };
}

/** When each workspace's first digest went out, from the fire (ms). */
export interface WorkspaceFirsts {
  workspaces: number;
  /** Workspaces that got at least one digest. */
  reached: number;
  minMs: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
  /** Workspaces whose first came more than 30 s after the fire. */
  over30s: number;
  /** Subscriptions of the workspace whose first came last. */
  lastSize: number;
}

export interface MondayRun {
  subscriptions: number;
  workspaces: number;
  accounts: number;
  workers: number;
  sizes: { largest: number; median: number; smallest: number; overThousand: number };
  /** Who sends the interactive mix: people, and the workspaces they are in. */
  mixFrom: { people: number; workspaces: number };
  /** The analytics emulator's requests and bytes sent per GraphQL operation over the run. */
  analyticsByOperation?: Record<string, { requests: number; bytes: number }>;
  /**
   * Bounds the product sets whatever the machine: the largest workspace's digests at Slack's
   * chat.postMessage budget per workspace (s), and the jobs of the fan-out's first priority (each
   * workspace's first member), which go out before any workspace's second.
   */
  floors: { largestWorkspaceS: number; firstRunJobs: number };
  storm: StormResult;
  firstDigestMs: number | null;
  /** Digests/s to 90 % of the slot: the workers' pace, before the largest workspaces' paced tails. */
  rateTo90: number | null;
  firsts: WorkspaceFirsts;
  /** Digest posts per channel against its subscriptions: channels with fewer, and the posts missing and extra. */
  channels: { channels: number; short: number; lost: number; duplicated: number };
  /** The web's answers to the mix sent from the fire to the slot's end. */
  web: OpenLoopResult;
  /** From the fire to the storm's end (the last digest, or the time limit), s. */
  slotS: number;
  /** CPU seconds of each process over the slot. */
  cpu: { name: string; cpuS: number }[];
  /** Each worker's CPU from its start to the fire (start-up and the slot's warm-up), s. */
  workersBeforeFireCpuS: number[];
  workerPeakRssMb: number[];
  /** Redis used_memory at its highest, sampled every 500 ms over the slot; used_memory_peak at its end. */
  redisPeakMb: number;
  redisPeakInfoMb: number;
  /** What Redis still held `afterS` after the slot, over the memory before the subscriptions were made. */
  held?: { afterS: number; bytesPerSub: number; families: FamilyUsage[]; info: HeldInfo };
  webDouble?: { rate: number; durationMs: number; result: OpenLoopResult; busyShare: number };
}

/** INFO memory's own account of used_memory at the hold, MB: the keys and what is not a key. */
export interface HeldInfo {
  dataset: number;
  overhead: number;
  clients: number;
  scripts: number;
  aofBuffer: number;
}

export interface MondayResult {
  plan: MondayPlan;
  slot: MondayRun;
  /** One worker against two on `subscriptions` (two: the slot itself when it is that size). */
  scaling?: { subscriptions: number; one: MondayRun; two?: MondayRun; ratioTo90: number; ratioAll: number };
}

const MB = 1024 * 1024;

/** A slot's result without what only the section needs (each delivery, each channel, each modal's window). */
const slimWeb = (r: OpenLoopResult): OpenLoopResult => ({ ...r, viewWindows: [] });

function median(xs: number[]): number {
  return quantile(xs, 0.5);
}

/** The earliest of many times (a spread of 100,000 arguments is past what a call takes). */
function earliest(times: Record<string, number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const t of Object.values(times)) if (t < min) min = t;
  return min;
}

/** Each workspace's first digest, from the deliveries' first posts. */
export function workspaceFirsts(
  posts: Record<string, number>,
  teamOfSub: Map<string, string>,
  sizeOfTeam: Map<string, number>,
  firedAt: number,
): WorkspaceFirsts {
  const first = new Map<string, number>();
  for (const [delivery, at] of Object.entries(posts)) {
    const team = teamOfSub.get(delivery.split("/")[0] ?? "");
    if (team === undefined) continue;
    first.set(team, Math.min(first.get(team) ?? Number.POSITIVE_INFINITY, at - firedAt));
  }
  const times = [...first.values()];
  let last: [string, number] = ["", Number.NEGATIVE_INFINITY];
  for (const entry of first) if (entry[1] > last[1]) last = entry;
  return {
    workspaces: sizeOfTeam.size,
    reached: first.size,
    minMs: quantile(times, 0),
    p50Ms: quantile(times, 0.5),
    p90Ms: quantile(times, 0.9),
    maxMs: quantile(times, 1),
    over30s: times.filter((t) => t > 30_000).length,
    lastSize: sizeOfTeam.get(last[0]) ?? 0,
  };
}

/** Digest posts per channel against the subscriptions posting there. */
export function channelCheck(
  expected: Map<string, number>,
  posts: Record<string, number>,
): MondayRun["channels"] {
  let short = 0;
  let lost = 0;
  let duplicated = 0;
  for (const [channel, want] of expected) {
    const got = posts[channel] ?? 0;
    if (got < want) short++;
    lost += Math.max(0, want - got);
    duplicated += Math.max(0, got - want);
  }
  return { channels: expected.size, short, lost, duplicated };
}

/** What the fan-out and Slack's pacing bound, from the workspaces' sizes alone. */
export function floorsOf(sizes: number[]): MondayRun["floors"] {
  const budget = SLACK_PACING.methods["chat.postMessage"] ?? { points: 600, durationSec: 60 };
  const largest = Math.max(0, ...sizes);
  return {
    largestWorkspaceS: round(largest / (budget.points / budget.durationSec), 1),
    // The fan-out's first priority: each workspace's first member.
    firstRunJobs: sizes.filter((s) => s > 0).length,
  };
}

async function redisCpuMs(world: World): Promise<number> {
  const info = String(await world.conn.info("cpu"));
  const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
  return (field("used_cpu_sys") + field("used_cpu_user")) * 1000;
}

/** Fields of INFO memory, bytes. */
async function memoryInfo(world: World): Promise<(name: string) => number> {
  const info = String(await world.conn.info("memory"));
  return (name) => Number(new RegExp(`^${name}:(\\d+)`, "m").exec(info)?.[1] ?? 0);
}

interface Pids {
  web: number;
  workers: number[];
  services: number;
  sender: number;
  sink: number;
}

/** CPU ms so far of every process of the run (the sender's without its answer sink, a child of its own). */
async function cpuNow(world: World, p: Pids): Promise<Record<string, number>> {
  const own = process.cpuUsage();
  const sink = cpuMs(p.sink);
  return {
    ...Object.fromEntries(p.workers.map((pid, i) => [`worker ${i + 1}`, cpuMs(pid)])),
    web: cpuMs(p.web),
    redis: await redisCpuMs(world),
    "emulator + Slack stand-in": cpuMs(p.services),
    "request sender": cpuMs(p.sender) - sink,
    "answer sink": sink,
    "bench (watching)": (own.user + own.system) / 1000,
  };
}

interface RunContext {
  monday: MondayWorld;
  plan: MondayPlan;
  sender: Child;
  web: Proc;
  mix: RequestSpec[];
  logDir: string;
  hold: boolean;
  webDouble: boolean;
  log: (line: string) => void;
}

const target = (c: RunContext, web: Proc) => {
  const first = c.monday.people[0];
  return {
    url: `http://127.0.0.1:${web.port}/slack/events`,
    secret: SANDBOX_SIGNING_SECRET,
    teamId: first?.teamId ?? "",
    userId: first?.users[0] ?? "",
    channelId: first?.channelId ?? "",
    text: "",
    requests: c.mix,
  };
};

/** Two web processes, fresh, past one pass over everyone, then `rate` requests/s of the same mix. */
async function webDouble(c: RunContext): Promise<NonNullable<MondayRun["webDouble"]>> {
  await c.web.stop();
  const web2 = await spawnProduct(
    "web",
    { ...c.monday.webEnv, WEB_CONCURRENCY: "2" },
    {
      logDir: c.logDir,
      name: "web-x2",
    },
  );
  try {
    const people = c.monday.people.reduce((n, w) => n + w.users.length, 0);
    await c.sender.call<OpenLoopResult>("openLoop", {
      ...target(c, web2),
      rate: 300,
      durationMs: Math.max(3_000, Math.ceil((people / 300) * 1000)),
    } satisfies OpenLoopArgs);
    const { rate, durationMs } = c.plan.webDouble;
    const result = await c.sender.call<OpenLoopResult>("openLoop", {
      ...target(c, web2),
      rate,
      durationMs,
      offset: people,
    } satisfies OpenLoopArgs);
    return {
      rate,
      durationMs,
      result: slimWeb(result),
      busyShare: round(result.busy / Math.max(1, result.sent), 4),
    };
  } finally {
    await web2.stop();
  }
}

type Alongside = Pick<
  MondayRun,
  | "web"
  | "slotS"
  | "cpu"
  | "workersBeforeFireCpuS"
  | "workerPeakRssMb"
  | "redisPeakMb"
  | "redisPeakInfoMb"
  | "webDouble"
> & {
  /** INFO used_memory `afterS` after the slot, bytes, and what holds it. */
  held?: { afterS: number; used: number; families: FamilyUsage[]; info: HeldInfo };
};

/** From the fire: the mix at the web, Redis sampled; at the slot's end the figures; then the hold and two webs. */
async function alongside(c: RunContext, s: AlongsideContext): Promise<Alongside> {
  const t0 = Date.now();
  const world = c.monday.world;
  const pids: Pids = {
    web: c.web.pid,
    workers: s.workerPids(),
    services: world.services.pid,
    sender: c.sender.pid,
    sink: await c.sender.call<number>("sinkPid"),
  };
  const workersBeforeFireCpuS = pids.workers.map((pid) => round(cpuMs(pid) / 1000, 1));
  const cpu0 = await cpuNow(world, pids);
  const loop = c.sender.call<OpenLoopResult>("openLoop", {
    ...target(c, c.web),
    rate: c.plan.mixRate,
    // The cap; the run stops at the slot's end (stopOpenLoop).
    durationMs: 3_600_000,
    untilStopped: true,
    // Answers that come late are counted late, not lost: the slot's replies p99 is read off all of them.
    replyGraceMs: 60_000,
  } satisfies OpenLoopArgs);
  let redisPeak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      redisPeak = Math.max(redisPeak, await usedMemory(world.conn).catch(() => 0));
      await sleep(500);
    }
  })();
  await s.ended;
  const slotMs = Date.now() - t0;
  sampling = false;
  await sampler;
  const cpu1 = await cpuNow(world, pids);
  const workerPeakRssMb = pids.workers.map((pid) => round(peakRssMb(pid), 1));
  const redisPeakInfoMb = round((await memoryInfo(world))("used_memory_peak") / MB, 1);
  await c.sender.call("stopOpenLoop");
  const web = slimWeb(await loop);
  c.log(
    `  slot over after ${round(slotMs / 1000, 1)} s: web ack p99 ${web.ackMs.p99} ms, replies p99 ${web.replyMs.p99} ms (${web.sent} requests)`,
  );
  const out: Alongside = {
    web,
    slotS: round(slotMs / 1000, 1),
    cpu: Object.keys(cpu1).map((name) => ({
      name,
      cpuS: round(((cpu1[name] ?? 0) - (cpu0[name] ?? 0)) / 1000, 1),
    })),
    workersBeforeFireCpuS,
    workerPeakRssMb,
    redisPeakMb: round(redisPeak / MB, 1),
    redisPeakInfoMb,
  };
  if (c.hold) {
    await sleep(t0 + slotMs + c.plan.holdMs - Date.now());
    const afterS = round((Date.now() - t0 - slotMs) / 1000, 0);
    const used = await usedMemory(world.conn);
    const field = await memoryInfo(world);
    const mb = (name: string) => round(field(name) / MB, 2);
    out.held = {
      afterS,
      used,
      info: {
        dataset: mb("used_memory_dataset"),
        overhead: mb("used_memory_overhead"),
        clients: mb("mem_clients_normal"),
        scripts: mb("used_memory_scripts_eval"),
        aofBuffer: mb("mem_aof_buffer"),
      },
      families: await memoryByFamily(world.conn),
    };
  }
  if (c.webDouble) {
    out.webDouble = await webDouble(c);
    c.log(
      `  two web processes at ${out.webDouble.rate}/s: ${out.webDouble.result.busy} busy of ${out.webDouble.result.sent}, ack p99 ${out.webDouble.result.ackMs.p99} ms`,
    );
  }
  return out;
}

/** One slot of `n` subscriptions with `workers` worker processes, in a world of its own. */
export async function runSlot(
  plan: MondayPlan,
  n: number,
  workers: number,
  o: { hold: boolean; webDouble: boolean },
  log: (line: string) => void,
): Promise<MondayRun> {
  let monday: MondayWorld | undefined;
  const build = async () => {
    monday = await buildMondayWorld(n);
    return monday.world;
  };
  return withFreshWorld(build, async (world) => {
    const m = monday as MondayWorld;
    const logDir = mkdtempSync(join(tmpdir(), "insights-bench-monday-"));
    const sender = spawnChild(new URL("../slash-sender.ts", import.meta.url));
    const web = await spawnProduct("web", m.webEnv, { logDir });
    const people = m.people.reduce((k, w) => k + w.users.length, 0);
    const c: RunContext = {
      monday: m,
      plan,
      sender,
      web,
      mix: buildMix(m.people, Math.max(2_000, people * 4), "mix"),
      logDir,
      ...o,
      log,
    };
    log(
      `  ${n.toLocaleString("en-US")} subscriptions over ${m.sizes.length.toLocaleString("en-US")} workspaces (largest ${m.sizes[0]}), ${m.accounts} accounts, ${workers} worker process(es); logs in ${logDir}`,
    );
    try {
      let side: Alongside | undefined;
      const storm = await runStorm({
        world,
        workers,
        worker: { prefix: world.prefix, queueName: world.queueName },
        timeoutMs: Math.max(600_000, n * 25),
        alongside: async (s) => {
          side = await alongside(c, s);
        },
      });
      if (!side) throw new Error("the slot's measurements did not finish");
      const analyticsByOperation =
        await world.services.call<Record<string, { requests: number; bytes: number }>>("emulatorByOperation");
      const teamOfSub = new Map(world.subs.map((x) => [x.id, x.ref.teamId ?? ""]));
      const sizeOfTeam = new Map<string, number>();
      const perChannel = new Map<string, number>();
      for (const x of world.subs) {
        sizeOfTeam.set(x.ref.teamId ?? "", (sizeOfTeam.get(x.ref.teamId ?? "") ?? 0) + 1);
        perChannel.set(x.channelId, (perChannel.get(x.channelId) ?? 0) + 1);
      }
      const sorted = [...m.sizes].sort((a, b) => b - a);
      const p90 = storm.timeToShareMs.p90;
      const { held, ...rest } = side;
      const run: MondayRun = {
        subscriptions: n,
        workspaces: m.sizes.length,
        accounts: m.accounts,
        workers,
        sizes: {
          largest: sorted[0] ?? 0,
          median: median(sorted),
          smallest: sorted.at(-1) ?? 0,
          overThousand: sorted.filter((x) => x >= 1_000).length,
        },
        mixFrom: { people, workspaces: m.people.length },
        analyticsByOperation,
        floors: floorsOf(m.sizes),
        storm: slim(storm),
        firstDigestMs: storm.delivered > 0 ? earliest(storm.firstPostBy ?? {}) - storm.firedAt : null,
        rateTo90: p90 === null ? null : round((0.9 * n) / Math.max(0.001, p90 / 1000), 1),
        firsts: workspaceFirsts(storm.firstPostBy ?? {}, teamOfSub, sizeOfTeam, storm.firedAt),
        channels: channelCheck(perChannel, storm.postsByChannel ?? {}),
        ...rest,
        ...(held
          ? {
              held: {
                afterS: held.afterS,
                bytesPerSub: round((held.used - (storm.redisUsedBefore ?? held.used)) / Math.max(1, n), 0),
                families: held.families,
                info: held.info,
              },
            }
          : {}),
      };
      log(
        `  all ${run.storm.delivered.toLocaleString("en-US")} out ${round(storm.timeToAllMs / 1000, 1)} s after the fire (${storm.digestsPerSec}/s; to 90 %: ${run.rateTo90}/s), first after ${run.firstDigestMs} ms, every workspace's first within ${round(run.firsts.maxMs / 1000, 1)} s`,
      );
      return run;
    } finally {
      await web.stop();
      await sender.kill().catch(() => undefined);
    }
  });
}

/** The slot with two workers (hold and two web processes included), then the one-against-two pair. */
export async function measureMonday(plan: MondayPlan, log: (line: string) => void): Promise<MondayResult> {
  log("  the slot, two worker processes");
  const slot = await runSlot(plan, plan.subs, 2, { hold: true, webDouble: true }, log);
  if (plan.scalingSubs <= 0) return { plan, slot };
  const own = plan.scalingSubs !== plan.subs;
  if (own) log("  the pair's two-worker run");
  const two = own ? await runSlot(plan, plan.scalingSubs, 2, { hold: false, webDouble: false }, log) : slot;
  log("  the pair's one-worker run");
  const one = await runSlot(plan, plan.scalingSubs, 1, { hold: false, webDouble: false }, log);
  const ratio = (a: number | null, b: number | null) => (a && b ? round(a / b, 2) : 0);
  return {
    plan,
    slot,
    scaling: {
      subscriptions: plan.scalingSubs,
      one,
      ...(own ? { two } : {}),
      ratioTo90: ratio(two.rateTo90, one.rateTo90),
      ratioAll: ratio(two.storm.digestsPerSec, one.storm.digestsPerSec),
    },
  };
}
