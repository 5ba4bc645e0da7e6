import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { type PrivateRedis, startPrivateRedis } from "../../sandbox/redis.ts";
import { DEMO, SANDBOX_SIGNING_SECRET, type Stack, startStack } from "../../sandbox/stack.ts";
import { connect } from "../e2e/helpers.ts";
import { forgetBuildCheck, freshBuild } from "../setup/product-build.ts";
import { type AckModeResult, measureAckModes, profileWeb, type WebProfile } from "./ack/section.ts";
import { startWorld } from "./ack/world.ts";
import { type AskBenchResult, measureAsk } from "./ask.ts";
import { type BadInputResult, measureBadInput, type ProcessCounters } from "./bad-input.ts";
import { startBareBolt } from "./bare-bolt.ts";
import { type ChartsBenchResult, defaultsBareMessage, measureCharts } from "./charts/section.ts";
import { type Child, spawnChild } from "./child.ts";
import { type DriversBenchResult, measureDrivers } from "./drivers/section.ts";
import type { CostResult } from "./engine/cost.ts";
import {
  measureCosts,
  measureThrottle,
  measureWorkers,
  type ThrottleResult,
  type WorkersRow,
} from "./engine/sections.ts";
import { type MondayResult, measureMonday } from "./monday/section.ts";
import { type Plan, planFor } from "./plan.ts";
import { measureRender, type RenderResult } from "./render.ts";
import type { OpenLoopResult, Target } from "./slash-sender.ts";
import { round, sleep } from "./stats.ts";
import { type FaultRun, runFaults } from "./storm/faults.ts";
import { judgedStorm, runStormRow, type StormRow } from "./storm/section.ts";
import { measureWorkerCpu, type WorkerCpuResult } from "./storm/worker-cpu-section.ts";

/** Everything one run measured; the Markdown report is rendered from this (report.ts). */
export interface BenchResults {
  meta: {
    startedAt: string;
    durationS: number;
    quick: boolean;
    node: string;
    /** The machine's own Node when the run measured on another (test/bench/runtime.ts). */
    machineNode?: string;
    cpus: number;
    cpuModel: string;
    loadAvgStart: number[];
    loadAvgEnd: number[];
    commit: string;
    plan: Plan;
    /** Failures of the bench itself (a section that threw), so a partial report says what is missing. */
    errors: string[];
    /** Sections asked for with --only; absent when all ran. */
    only?: string[];
    /** The Monday slot's size asked for with --subs; absent when the run's own. */
    subs?: number;
    /** How long each section took, in the order they ran, so the run's length can be read where it goes. */
    sections?: { name: string; seconds: number }[];
    /** What the app's own processes ran: the compiled build (dist/), as installed, or the sources through tsx. */
    product?: "dist" | "sources";
  };
  render?: RenderResult;
  /** Ack latency, CPU and answers per deployment shape (`start`, web + worker, web ×2 + worker), OAuth, a realistic mix. */
  ackModes?: AckModeResult[];
  /** CPU profiles of the web and worker processes per kind of request (`--only profile`). */
  webProfiles?: WebProfile[];
  ackUnderStorm?: { rate: number; storm: string; app: OpenLoopResult };
  badInput?: BadInputResult;
  storms: StormRow[];
  faults: FaultRun[];
  /** Drivers of a change: queries, time added, storms with shared accounts. */
  drivers?: DriversBenchResult;
  /** Charts Slack draws: render with the chart block, storms with the defaults (issue 25). */
  charts?: ChartsBenchResult;
  /** Questions in plain words: reply time in the DM, the reader's cost. */
  ask?: AskBenchResult;
  /** The worker's CPU per delivery with drivers against without, alternated pairs (`--only worker-cpu`, and the full run). */
  workerCpu?: WorkerCpuResult;
  /** The same fault runs on a 3-master Redis Cluster. */
  faultsCluster: FaultRun[];
  engine: {
    cost?: CostResult[];
    workers?: WorkersRow[];
    throttle?: ThrottleResult;
  };
  /** Monday 09:00: a large install's slot with the defaults, two workers, people at the web. */
  monday?: MondayResult;
  process: ProcessCounters;
}

/** Section names for `--only` (comma-separated). */
export const SECTIONS = [
  "render",
  "ack",
  "bad-input",
  "storms",
  "engine",
  "faults",
  "drivers",
  "profile",
  "charts",
  "ask",
  "worker-cpu",
  "monday",
] as const;

function commit(): string {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim();
  const dirty = spawnSync("git", ["status", "--porcelain"], { encoding: "utf8" }).stdout.trim() !== "";
  return head ? `${head}${dirty ? " + uncommitted changes" : ""}` : "unknown";
}

/**
 * The app's own processes (the ack section's, the storms' workers) run what a production install
 * runs: the compiled build. It is made first when it is missing or older than the sources.
 */
function buildProduct(log: (line: string) => void): "dist" | "sources" {
  if (freshBuild()) return "dist";
  log("building dist/ (npm run build) so the app's processes run the compiled product");
  const built = spawnSync("npm", ["run", "build"], { stdio: ["ignore", "inherit", "inherit"] });
  forgetBuildCheck();
  if (built.status !== 0 || !freshBuild()) {
    log("the build failed: the app's processes run the sources through tsx (the report says so)");
    return "sources";
  }
  return "dist";
}

const load = () => loadavg().map((l) => round(l, 2));

interface Apps {
  redis: PrivateRedis;
  stack: Stack;
  bare: { url: string; close(): Promise<void> };
  sender: Child;
  app: Target;
  bareTarget: Target;
}

/** The app as `start` runs it (digest threads in its process), in this process: bad input and storms. */
async function startApps(): Promise<Apps> {
  const redis = await startPrivateRedis();
  let stack: Stack | undefined;
  let bare: Apps["bare"] | undefined;
  try {
    // Production-like logging: info level (one line per command), kept in memory by the stack.
    stack = await startStack({ redisUrl: redis.url, prefix: "bench", logLevel: "info" });
    await connect(stack);
    bare = await startBareBolt(SANDBOX_SIGNING_SECRET);
  } catch (err) {
    // What started is stopped: a Redis child left running would keep the bench from ever exiting.
    await bare?.close().catch(() => undefined);
    await stack?.close().catch(() => undefined);
    await redis.destroy().catch(() => undefined);
    throw err;
  }
  const sender = spawnChild(new URL("./slash-sender.ts", import.meta.url));
  const who = {
    secret: SANDBOX_SIGNING_SECRET,
    teamId: DEMO.teamId,
    userId: DEMO.member,
    channelId: DEMO.general,
  };
  return {
    redis,
    stack,
    bare,
    sender,
    app: { url: `${stack.web.url}/slack/events`, ...who },
    bareTarget: { url: bare.url, ...who },
  };
}

async function stopApps(a: Apps): Promise<void> {
  await a.sender.kill().catch(() => undefined);
  await a.bare.close().catch(() => undefined);
  await a.stack.close().catch(() => undefined);
  await a.redis.destroy().catch(() => undefined);
}

/**
 * Runs every section in one process (the app's), in an order that keeps them from disturbing each
 * other: pure render cost first, then ack latency and bad input against an idle app, then the
 * storms (one of them with ack latency measured alongside), then the fault runs.
 */
export async function runBench(o: {
  quick: boolean;
  log: (line: string) => void;
  /** Run only these sections (default: all). */
  only?: readonly string[];
  /** The Monday slot's subscriptions, instead of the run's own (`--subs`). */
  subs?: number;
}): Promise<BenchResults> {
  const plan = planFor(o.quick, { subs: o.subs });
  const product = buildProduct(o.log);
  // Profiling slows what it watches: it runs only when asked for by name.
  const wanted = (name: (typeof SECTIONS)[number]) => (o.only ? o.only.includes(name) : name !== "profile");
  const started = Date.now();
  const counters: ProcessCounters = { unhandledRejections: 0, uncaughtExceptions: 0 };
  const onRejection = (err: unknown) => {
    counters.unhandledRejections++;
    o.log(`unhandled rejection: ${String((err as Error)?.stack ?? err).slice(0, 300)}`);
  };
  const onException = (err: Error) => {
    counters.uncaughtExceptions++;
    o.log(`uncaught exception: ${String(err.stack ?? err).slice(0, 300)}`);
  };
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  const results: BenchResults = {
    meta: {
      startedAt: new Date(started).toISOString(),
      durationS: 0,
      quick: o.quick,
      node: process.version,
      ...(process.env.BENCH_MACHINE_NODE && process.env.BENCH_MACHINE_NODE !== process.version
        ? { machineNode: process.env.BENCH_MACHINE_NODE }
        : {}),
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? "unknown",
      loadAvgStart: load(),
      loadAvgEnd: [],
      commit: commit(),
      product,
      plan,
      errors: [],
      sections: [],
      ...(o.only ? { only: [...o.only] } : {}),
      ...(o.subs === undefined ? {} : { subs: o.subs }),
    },
    storms: [],
    faults: [],
    faultsCluster: [],
    engine: {},
    process: counters,
  };
  const finish = () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
    results.meta.loadAvgEnd = load();
    results.meta.durationS = round((Date.now() - started) / 1000, 1);
    return results;
  };
  const section = async (name: string, fn: () => Promise<void>) => {
    const t = Date.now();
    o.log(`▶ ${name}`);
    try {
      await fn();
    } catch (err) {
      results.meta.errors.push(`${name}: ${String((err as Error)?.message ?? err).slice(0, 500)}`);
      o.log(`✖ ${name}: ${String((err as Error)?.stack ?? err)}`);
    }
    const seconds = round((Date.now() - t) / 1000, 1);
    results.meta.sections?.push({ name, seconds });
    o.log(`  ${name} took ${seconds.toFixed(1)} s`);
  };

  if (wanted("engine"))
    await section("Redis cost per delivery (single node, cluster)", async () => {
      results.engine.cost = await measureCosts(plan.engine.cost);
    });
  if (wanted("render"))
    await section("render cost", async () => {
      results.render = await measureRender(plan.render);
    });
  if (wanted("ack") || wanted("profile")) {
    const world = await startWorld(plan.ack.world);
    const sender = spawnChild(new URL("./slash-sender.ts", import.meta.url));
    try {
      if (wanted("ack"))
        await section("ack latency, CPU and answers (start; web + worker; web ×2 + worker)", async () => {
          results.ackModes = await measureAckModes({ world, sender, plan: plan.ack, log: o.log });
        });
      if (wanted("profile"))
        await section("CPU profiles of the web and worker processes (mix, commands, clicks)", async () => {
          results.webProfiles = await profileWeb({
            world,
            sender,
            kinds: ["mix", "commands", "buttons"],
            rate: 300,
            durationMs: plan.ack.durationMs * 2,
            dir: new URL("./results/profiles/", import.meta.url).pathname,
            log: o.log,
          });
        });
    } finally {
      await sender.kill().catch(() => undefined);
      await world.close().catch(() => undefined);
    }
  }
  const needsApps = wanted("bad-input") || wanted("storms");
  const apps = needsApps ? await startApps() : undefined;
  try {
    if (apps && wanted("bad-input"))
      await section("bad input", async () => {
        results.badInput = await measureBadInput({
          stack: apps.stack,
          sender: apps.sender,
          target: apps.app,
          counters,
          fuzzCount: plan.badInput.fuzz,
          analyticsCount: plan.badInput.analytics,
          slackCount: plan.badInput.slack,
        });
      });
    // Ack latency is measured during the heaviest storm with shared channels (the longest one).
    const underIndex = plan.storms.reduce(
      (best, s, i, all) =>
        s.subscriptions * s.subsPerChannel >=
        (all[best]?.subscriptions ?? 0) * (all[best]?.subsPerChannel ?? 0)
          ? i
          : best,
      0,
    );
    for (const [i, spec] of (apps && wanted("storms") ? plan.storms : []).entries()) {
      if (!apps) break;
      const label = `storm ${spec.subscriptions.toLocaleString("en-US")} subscriptions / ${spec.workspaces.toLocaleString("en-US")} workspaces, ${spec.subsPerChannel} per channel`;
      await section(label, async () => {
        const alongside =
          wanted("ack") && i === underIndex
            ? async () => {
                await sleep(plan.ackUnderStorm.delayMs);
                const app = await apps.sender.call<OpenLoopResult>("openLoop", {
                  ...apps.app,
                  rate: plan.ackUnderStorm.rate,
                  durationMs: plan.ackUnderStorm.durationMs,
                  text: "last7d",
                  replyGraceMs: 5_000,
                });
                results.ackUnderStorm = { rate: plan.ackUnderStorm.rate, storm: label, app };
              }
            : undefined;
        const once = (withAlongside?: () => Promise<unknown>) =>
          runStormRow({
            ...spec,
            concurrency: plan.concurrency,
            timeoutMs: plan.stormTimeoutMs,
            alongside: withAlongside,
            // The defaults: native charts on (the bench world's own default is off), drivers on.
            env: { CHARTS: "on" },
            bareMessage: defaultsBareMessage,
          });
        // A ratio within the noise of its bound is run again (without the acks beside it) and judged on the median.
        results.storms.push(await judgedStorm(await once(alongside), () => once()));
      });
    }
  } finally {
    if (apps) await stopApps(apps);
  }
  if (wanted("engine")) {
    await section("1 vs 2 worker processes", async () => {
      results.engine.workers = await measureWorkers({
        ...plan.engine.workers,
        timeoutMs: plan.stormTimeoutMs,
      });
    });
    await section("a throttled workspace's cost to the others", async () => {
      results.engine.throttle = await measureThrottle({
        ...plan.engine.throttle,
        timeoutMs: plan.stormTimeoutMs,
      });
    });
  }
  if (wanted("faults")) {
    // Both deployments' runs side by side: each run waits most of its time (lock expiry, Retry-After,
    // hangs, the settle), and what they report is lost and duplicated digests, not speed.
    await section("faults (single node and Redis Cluster, side by side)", async () => {
      // Both end before either's failure is reported (see runFaults); each deployment's figures stand.
      const [single, cluster] = await Promise.allSettled([
        runFaults({ ...plan.faults, concurrency: plan.concurrency }),
        runFaults({ ...plan.faults, concurrency: plan.concurrency, cluster: true }),
      ]);
      if (single.status === "fulfilled") results.faults = single.value;
      if (cluster.status === "fulfilled") results.faultsCluster = cluster.value;
      if (single.status === "rejected") throw single.reason;
      if (cluster.status === "rejected") throw cluster.reason;
    });
  }
  if (wanted("drivers"))
    await section("drivers", async () => {
      results.drivers = await measureDrivers(plan.drivers, o.log);
    });
  if (wanted("charts"))
    await section("charts", async () => {
      results.charts = await measureCharts(plan.charts, o.log);
    });
  if (wanted("ask"))
    await section("questions in plain words", async () => {
      results.ask = await measureAsk(plan.ask);
    });
  if (wanted("monday"))
    await section(
      `Monday 09:00: ${plan.monday.subs.toLocaleString("en-US")} subscriptions, two workers, people at the web`,
      async () => {
        results.monday = await measureMonday(plan.monday, o.log);
      },
    );
  // Alternated pairs take about 20 s each: asked for by name, or in the full run, never in --quick's five minutes.
  if (o.only ? o.only.includes("worker-cpu") : !o.quick)
    await section("worker CPU with drivers against without (alternated pairs)", async () => {
      results.workerCpu = await measureWorkerCpu(o.quick ? 5 : 7, o.log);
    });
  return finish();
}
