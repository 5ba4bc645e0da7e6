import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../../sandbox/redis.ts";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import type { Child } from "../child.ts";
import { type CpuShare, watchCpu } from "../cpu-watch.ts";
import type { OpenLoopResult } from "../slash-sender.ts";
import { quantile, round } from "../stats.ts";
import { attachProfiler } from "./inspect.ts";
import { buildMix, type MixKind } from "./mix.ts";
import { cpuMs, type Proc, spawnBare, spawnProduct } from "./procs.ts";
import { type ProfileSummary, summarizeCpuProfile } from "./profile.ts";
import type { RequestSpec } from "./requests.ts";
import { windowArgs } from "./window.ts";
import type { World } from "./world.ts";

/**
 * Ack latency, CPU and answers of the product as it is deployed, against a bare Bolt app, under a
 * realistic mix (mix.ts) in OAuth mode: `start` (digest threads), web + worker (one web process),
 * and web ×2 (WEB_CONCURRENCY=2) + worker. Each mode starts fresh processes on emptied caches: the
 * first pass over the mix is the cold one; then each rate is measured warm, alternating with bare.
 */

export type AckMode = "start" | "web+worker" | "web×2+worker";

export interface AckRun {
  rate: number;
  kind: MixKind;
  bare: OpenLoopResult;
  app: OpenLoopResult;
  ratioP99: number;
  ratioP50: number;
  /**
   * CPU per request, ms: the bare app; the process Slack talks to (web, with its cluster workers; or
   * `start`). Each the median of its side's runs (one run's figure moves with when its GCs fall).
   */
  cpuMsPerRequest: { bare: number; app: number; mainThread?: number; worker?: number };
  /** Each run's CPU per request, in order (reports before 2026-11-28 06:30 do not have it). */
  cpuRuns?: { bare: number[]; app: number[] };
  cpu: { bare: CpuShare; app: CpuShare };
  /**
   * CPU ms per request of the other processes on the machine over the same run (the median-p99 run
   * of each side): what the app's process shared the two cores with. Reports before 2026-11-28
   * 14:30 do not have it.
   */
  others?: { bare: OthersCpu; app: OthersCpu };
  p99Runs: { bare: number[]; app: number[] };
  /** Modal submissions during which the app called Slack about that person or channel before acking. */
  modalSlackCallsBeforeAck: number;
  /** What each of those calls was (reports from before 2026-11-27 04:00 do not have it). */
  modalFlags?: ModalFlag[];
}

export interface AckModeResult {
  mode: AckMode;
  cold: AckRun;
  warm: AckRun[];
  /** Commands only and clicks only (web + worker): CPU per command and per button. */
  kinds: AckRun[];
}

export interface AckPlan {
  rates: number[];
  durationMs: number;
  repeats: number;
  /** Modes to measure, and rates for web ×2. */
  modes: AckMode[];
  doubleRates: number[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ms per request of the processes beside the one measured (see AckRun.others). */
export interface OthersCpu {
  /** The worker process (web + worker modes). */
  worker?: number;
  /** The Slack stand-in and the analytics emulator (this bench's own process). */
  standIns: number;
  /** The load sender. */
  sender: number;
  /** The process that receives the answers posted to response_url (the sender's answer sink). */
  answers: number;
  redis: number;
}

interface Ctx {
  world: World;
  sender: Child;
  bare: Proc;
  app: Proc;
  worker?: Proc;
  mode: AckMode;
  mixes: Record<MixKind, RequestSpec[]>;
  offsets: Record<MixKind, number>;
}

const SLACK_LOOKUPS = new Set([
  "users.info",
  "conversations.info",
  "conversations.open",
  "conversations.members",
]);

/** A modal submission during whose window Slack was asked about its person or channel: what was asked, and when. */
export interface ModalFlag {
  method: string;
  /** Whom the call was about: the submitting person, or the submission's channel. */
  about: "person" | "channel";
  /** When the call reached Slack, and when the sender saw the submission's ack, ms after it was sent. */
  callMs: number;
  ackMs: number;
  /** Other requests of the same person or channel in the 5 s before the ack (see slash-sender.ts). */
  neighbours: number;
}

/**
 * How long the stand-in takes to answer a lookup in this section. A submission that waited on one
 * cannot have been acked before the call's arrival plus this; a lookup made after the ack (a
 * subscription's channel check) can reach the stand-in before the sender has read that ack on a busy
 * machine, and is not flagged for it.
 */
export const LOOKUP_LATENCY_MS = 25;

function modalCalls(world: World, r: OpenLoopResult): ModalFlag[] {
  if (r.viewWindows.length === 0) return [];
  const calls = world.slack.calls((c) => SLACK_LOOKUPS.has(c.method));
  const flags: ModalFlag[] = [];
  for (const w of r.viewWindows) {
    const c = calls.find(
      (c) =>
        c.teamId === w.teamId &&
        c.at >= w.from &&
        c.at + LOOKUP_LATENCY_MS <= w.to &&
        (c.args.user === w.userId || c.args.channel === w.channelId || c.args.users === w.userId),
    );
    if (c)
      flags.push({
        method: c.method,
        about: c.args.channel === w.channelId ? "channel" : "person",
        callMs: c.at - w.from,
        ackMs: w.to - w.from,
        neighbours: w.neighbours,
      });
  }
  return flags;
}

async function once(c: Ctx, who: "bare" | "app", rate: number, kind: MixKind, durationMs: number) {
  const target = who === "bare" ? c.bare : c.app;
  const requests = c.mixes[kind];
  const offset = c.offsets[kind];
  const args = windowArgs(target, { rate, durationMs, requests, offset, answers: who === "app" });
  if (who === "app") c.offsets[kind] = (offset + Math.round((rate * durationMs) / 1000)) % requests.length;
  const watch = watchCpu();
  const app0 = cpuMs(target.pid);
  const main0 = c.mode === "start" && who === "app" ? cpuMs(target.pid, { mainThreadOnly: true }) : 0;
  const worker0 = c.worker ? cpuMs(c.worker.pid) : 0;
  const own0 = process.cpuUsage();
  const sender0 = cpuMs(c.sender.pid);
  // The sender's figure counts its children, the answer sink among them: that is told apart.
  const sinkPid = await c.sender.call<number>("sinkPid");
  const answers0 = cpuMs(sinkPid);
  const redis0 = await c.world.redisCpuMs();
  const result = await c.sender.call<OpenLoopResult>("openLoop", args);
  const per = (ms: number) => round(ms / result.sent, 3);
  const own = process.cpuUsage(own0);
  const answersMs = cpuMs(sinkPid) - answers0;
  const senderMs = cpuMs(c.sender.pid) - sender0;
  const others: OthersCpu = {
    ...(c.worker ? { worker: per(cpuMs(c.worker.pid) - worker0) } : {}),
    standIns: per((own.user + own.system) / 1_000),
    sender: per(senderMs - answersMs),
    answers: per(answersMs),
    redis: per((await c.world.redisCpuMs()) - redis0),
  };
  return {
    result,
    cpu: watch.stop(),
    msPerRequest: per(cpuMs(target.pid) - app0),
    mainThread:
      c.mode === "start" && who === "app"
        ? per(cpuMs(target.pid, { mainThreadOnly: true }) - main0)
        : undefined,
    worker: who === "app" ? others.worker : undefined,
    others,
  };
}

type Once = Awaited<ReturnType<typeof once>>;

function median(runs: Once[]): Once {
  const sorted = [...runs].sort((a, b) => a.result.ackMs.p99 - b.result.ackMs.p99);
  return sorted[Math.floor((sorted.length - 1) / 2)] as Once;
}

/** The median of the runs' figures (nearest rank: the lower middle of an even count). */
const middle = (values: (number | undefined)[]) =>
  quantile(
    values.filter((v): v is number => v !== undefined),
    0.5,
  );

async function measure(
  c: Ctx,
  rate: number,
  kind: MixKind,
  durationMs: number,
  repeats: number,
): Promise<AckRun> {
  const bareRuns: Once[] = [];
  const appRuns: Once[] = [];
  for (let i = 0; i < repeats; i++) {
    bareRuns.push(await once(c, "bare", rate, kind, durationMs));
    appRuns.push(await once(c, "app", rate, kind, durationMs));
  }
  const bare = median(bareRuns);
  const app = median(appRuns);
  const modalFlags = appRuns.flatMap((r) => modalCalls(c.world, r.result));
  return {
    rate,
    kind,
    bare: bare.result,
    app: app.result,
    ratioP99: round(app.result.ackMs.p99 / Math.max(bare.result.ackMs.p99, 0.01)),
    ratioP50: round(app.result.ackMs.p50 / Math.max(bare.result.ackMs.p50, 0.01)),
    cpuMsPerRequest: {
      bare: middle(bareRuns.map((r) => r.msPerRequest)),
      app: middle(appRuns.map((r) => r.msPerRequest)),
      ...(app.mainThread !== undefined ? { mainThread: middle(appRuns.map((r) => r.mainThread)) } : {}),
      ...(app.worker !== undefined ? { worker: middle(appRuns.map((r) => r.worker)) } : {}),
    },
    cpuRuns: { bare: bareRuns.map((r) => r.msPerRequest), app: appRuns.map((r) => r.msPerRequest) },
    cpu: { bare: bare.cpu, app: app.cpu },
    others: { bare: bare.others, app: app.others },
    p99Runs: { bare: bareRuns.map((r) => r.result.ackMs.p99), app: appRuns.map((r) => r.result.ackMs.p99) },
    // The count beside the calls: reports written before the calls were kept have only the count.
    modalSlackCallsBeforeAck: modalFlags.length,
    modalFlags,
  };
}

async function startMode(world: World, mode: AckMode, logDir: string, profileDir?: string) {
  const prof = (name: string) => {
    if (!profileDir) return [];
    const dir = join(profileDir, name);
    mkdirSync(dir, { recursive: true });
    return ["--cpu-prof", `--cpu-prof-dir=${dir}`];
  };
  if (mode === "start")
    return { app: await spawnProduct("start", world.env, { logDir, nodeArgs: prof("start") }) };
  const env = { ...world.env, WEB_CONCURRENCY: mode === "web×2+worker" ? "2" : "1" };
  // Web and worker share this machine's cores: the worker gives its threads nice 10 itself (WORKER_NICE).
  const worker = await spawnProduct("worker", env, { logDir });
  const app = await spawnProduct("web", env, {
    logDir,
    nodeArgs: prof(mode === "web+worker" ? "web" : "web2"),
  });
  return { app, worker };
}

/** Runs every mode of the plan; `log` reports progress. With `profileDir`, each web process writes a CPU profile there. */
export async function measureAckModes(o: {
  world: World;
  sender: Child;
  plan: AckPlan;
  log: (line: string) => void;
  profileDir?: string;
}): Promise<AckModeResult[]> {
  const logDir = mkdtempSync(join(tmpdir(), "insights-bench-ack-"));
  o.log(`  product logs in ${logDir}`);
  const people = o.world.workspaces.reduce((n, w) => n + w.users.length, 0);
  const mixes: Record<MixKind, RequestSpec[]> = {
    mix: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "mix"),
    commands: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "commands"),
    buttons: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "buttons"),
  };
  for (const method of SLACK_LOOKUPS) o.world.slack.setLatency(method, LOOKUP_LATENCY_MS);
  const out: AckModeResult[] = [];
  for (const mode of o.plan.modes) {
    const flushed = await o.world.flushCaches();
    o.log(`  ${mode}: ${flushed} cached keys dropped; starting processes`);
    // A fresh bare Bolt beside each mode's fresh processes: both serve the same requests in the same
    // order from their first, so neither side's figures carry more warm-up (JIT, sockets) than the other's.
    const bare = await spawnBare(SANDBOX_SIGNING_SECRET, { logDir });
    try {
      const procs = await startMode(o.world, mode, logDir, o.profileDir);
      const c: Ctx = {
        world: o.world,
        sender: o.sender,
        bare,
        ...procs,
        mode,
        mixes,
        offsets: { mix: 0, commands: 0, buttons: 0 },
      };
      try {
        // Cold: fresh processes, empty caches, one pass over every person of every workspace.
        const coldMs = Math.max(o.plan.durationMs, Math.ceil((people / 300) * 1000));
        const cold = await measure(c, 300, "mix", coldMs, 1);
        o.log(
          `  ${mode} cold: ack p99 ${cold.app.ackMs.p99} ms (bare ${cold.bare.ackMs.p99}), replies p99 ${cold.app.replyMs.p99} ms`,
        );
        const warm: AckRun[] = [];
        const rates = mode === "web×2+worker" ? o.plan.doubleRates : o.plan.rates;
        for (const rate of rates) {
          const run = await measure(c, rate, "mix", o.plan.durationMs, rate > 500 ? 1 : o.plan.repeats);
          warm.push(run);
          o.log(
            `  ${mode} ${rate}/s: ack p99 ${run.app.ackMs.p99} ms (bare ${run.bare.ackMs.p99}), busy ${run.app.busy}, lost ${run.app.lost}, CPU/request ${run.cpuMsPerRequest.app} ms (bare ${run.cpuMsPerRequest.bare})`,
          );
        }
        const kinds: AckRun[] = [];
        if (mode === "web+worker")
          for (const kind of ["commands", "buttons"] as const) {
            // Commands only decide a target: as many runs as a warm rate; clicks only are reported.
            const run = await measure(
              c,
              300,
              kind,
              o.plan.durationMs,
              kind === "commands" ? o.plan.repeats : 1,
            );
            kinds.push(run);
            o.log(
              `  ${mode} ${kind} only: CPU/request ${run.cpuMsPerRequest.app} ms (bare ${run.cpuMsPerRequest.bare})`,
            );
          }
        out.push({ mode, cold, warm, kinds });
      } finally {
        await c.app.stop();
        await c.worker?.stop();
        // Profiles are written on exit; give the file system a moment.
        await sleep(200);
      }
    } finally {
      await bare.stop();
    }
  }
  return out;
}

export interface WebProfile {
  kind: MixKind;
  rate: number;
  sent: number;
  cpuMsPerRequest: number;
  ackP99Ms: number;
  summary: ProfileSummary;
  /** The worker process over the same window (it ends once every answer has arrived). */
  worker?: { cpuMsPerRequest: number; replyP99Ms: number; summary: ProfileSummary };
}

/**
 * CPU profiles of the web process and of the worker (web + worker, one web) under `rate` requests/s
 * of each kind, each over its own window once the processes are warm (one pass over everyone's
 * requests first). The window ends when every answer has arrived, so the worker's profile holds all
 * the work of the window's requests. Raw profiles are written to `dir` (open them in Chrome's
 * DevTools or speedscope).
 */
export async function profileWeb(o: {
  world: World;
  sender: Child;
  kinds: MixKind[];
  rate: number;
  durationMs: number;
  dir: string;
  log: (line: string) => void;
}): Promise<WebProfile[]> {
  const logDir = mkdtempSync(join(tmpdir(), "insights-bench-prof-"));
  mkdirSync(o.dir, { recursive: true });
  const inspectPort = await freePort();
  const workerInspectPort = await freePort();
  const env = { ...o.world.env, WEB_CONCURRENCY: "1" };
  await o.world.flushCaches();
  const worker = await spawnProduct("worker", env, {
    logDir,
    nodeArgs: [`--inspect=127.0.0.1:${workerInspectPort}`],
  });
  const web = await spawnProduct("web", env, { logDir, nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`] });
  const people = o.world.workspaces.reduce((n, w) => n + w.users.length, 0);
  const c: Ctx = {
    world: o.world,
    sender: o.sender,
    bare: web,
    app: web,
    worker,
    mode: "web+worker",
    mixes: {
      mix: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "mix"),
      commands: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "commands"),
      buttons: buildMix(o.world.workspaces, Math.max(2_000, people * 4), "buttons"),
    },
    offsets: { mix: 0, commands: 0, buttons: 0 },
  };
  const out: WebProfile[] = [];
  try {
    await once(c, "app", 200, "mix", Math.ceil((people / 200) * 1000) + 1_000);
    for (const kind of o.kinds) {
      await once(c, "app", o.rate, kind, 1_000);
      const profiler = await attachProfiler(inspectPort);
      const workerProfiler = await attachProfiler(workerInspectPort);
      await profiler.start();
      await workerProfiler.start();
      const run = await once(c, "app", o.rate, kind, o.durationMs);
      const profile = await profiler.stop();
      const workerProfile = await workerProfiler.stop();
      const file = join(o.dir, `web-${kind}-${o.rate}.cpuprofile`);
      const workerFile = join(o.dir, `worker-${kind}-${o.rate}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      writeFileSync(workerFile, JSON.stringify(workerProfile));
      const summary = summarizeCpuProfile(profile, file);
      const workerSummary = summarizeCpuProfile(workerProfile, workerFile);
      out.push({
        kind,
        rate: o.rate,
        sent: run.result.sent,
        cpuMsPerRequest: run.msPerRequest,
        ackP99Ms: run.result.ackMs.p99,
        summary,
        worker: {
          cpuMsPerRequest: run.worker ?? 0,
          replyP99Ms: run.result.replyMs.p99,
          summary: workerSummary,
        },
      });
      o.log(`  profile ${kind}: ${run.msPerRequest} ms CPU per request, ${summary.busyMs} ms busy; ${file}`);
      o.log(
        `  worker ${kind}: ${run.worker} ms CPU per request, ${workerSummary.busyMs} ms busy; ${workerFile}`,
      );
    }
  } finally {
    await web.stop();
    await worker.stop();
  }
  return out;
}
