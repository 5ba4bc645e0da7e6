import type { BenchResults } from "../main.ts";
import { notMeasured, seconds, table, tableUnder } from "../markdown.ts";
import { int, round } from "../stats.ts";
import type { TargetCheck } from "../targets.ts";
import type { MondayRun } from "./section.ts";

/** The Monday slot's targets and its part of the bench report. */

const s = seconds;
const ms = (n: number) => `${round(n, 1)} ms`;
const MIB = 1024;

/** What the machine did over a slot: each process's CPU seconds, and all of them in cores. */
function cpuLine(run: MondayRun): string {
  const total = run.cpu.reduce((n, p) => n + p.cpuS, 0);
  return `CPU over the ${run.slotS} s slot: ${run.cpu.map((p) => `${p.name} ${p.cpuS} s`).join(", ")}; ${round(total / Math.max(0.1, run.slotS), 2)} cores busy on average, the machine's CPU ${run.storm.cpu.machinePct} % (${run.storm.cpu.othersPct} % other processes)`;
}

/** The bounds the world's sizes set, whatever the machine (see floorsOf). */
function floorsLine(run: MondayRun): string {
  return `the largest workspace holds ${int(run.sizes.largest)} subscriptions, ${run.floors.largestWorkspaceS} s of posts at Slack's chat.postMessage budget per workspace; the fan-out's first priority holds ${int(run.floors.firstRunJobs)} jobs (each workspace's first member) before any workspace's second`;
}

const TARGETS = {
  all: "Monday slot: every digest delivered within 300 s of the fire (defaults, two workers)",
  exact: "Monday slot: 0 lost, 0 duplicated (per delivery and per channel at the Slack stand-in)",
  first: "Monday slot: the first digest within 2 s of the fire",
  workspaces: "Monday slot: every workspace's first digest within 30 s of the fire",
  ack: "Monday slot: the web's ack p99 ≤ 50 ms during the slot (realistic mix, 100 requests/s)",
  replies: "Monday slot: digest replies p99 ≤ 1.5 s during the slot",
  held: "Monday slot: ≤ 700 B of Redis per subscription held 2 minutes after it (INFO used_memory over the memory before the subscriptions)",
  rss: "Monday slot: each worker's peak RSS ≤ 1 GiB",
  scaling: "two worker processes deliver ≥ 1.6 × one worker's rate (Monday slot of 10,000)",
  webDouble: "two web processes (WEB_CONCURRENCY=2) hold 1,000 requests/s with ≤ 1 % busy notes",
} as const;

export function mondayTargets(r: BenchResults): TargetCheck[] {
  const m = r.monday;
  if (!m) return Object.values(TARGETS).map((t) => notMeasured(t));
  const run = m.slot;
  const st = run.storm;
  const n = run.subscriptions;
  const out: TargetCheck[] = [
    {
      target: `${TARGETS.all}: ${int(n)} subscriptions`,
      figure: `${s(st.timeToAllMs)}${st.delivered < n ? ` (only ${int(st.delivered)} delivered${st.timedOut ? ", stopped at the time limit" : ""})` : ""}; ${st.digestsPerSec} digests/s (to 90 %: ${run.rateTo90 ?? "—"}/s)`,
      met: st.delivered >= n && !st.timedOut && st.timeToAllMs <= 300_000,
      why: `${floorsLine(run)}; 50 / 90 / 99 % out after ${s(st.timeToShareMs.p50)} / ${s(st.timeToShareMs.p90)} / ${s(st.timeToShareMs.p99)}; ${cpuLine(run)}`,
    },
    {
      target: TARGETS.exact,
      figure: `${int(st.delivered)} delivered, ${int(st.lost)} lost, ${int(st.duplicates)} duplicated; per channel ${int(run.channels.lost)} missing, ${int(run.channels.duplicated)} extra over ${int(run.channels.channels)} channels`,
      met: st.lost === 0 && st.duplicates === 0 && run.channels.lost === 0 && run.channels.duplicated === 0,
      why: `${int(st.failedJobs)} failed jobs, ${int(st.failureNotices)} other posts in channels, ${int(st.rateLimited429)} Slack 429s`,
    },
    {
      target: TARGETS.first,
      figure: run.firstDigestMs === null ? "none delivered" : ms(run.firstDigestMs),
      met: run.firstDigestMs !== null && run.firstDigestMs <= 2_000,
      why: `each worker's CPU from its start to the fire (start-up and the slot's warm-up): ${run.workersBeforeFireCpuS.join(", ")} s; ${cpuLine(run)}`,
    },
    {
      target: TARGETS.workspaces,
      figure: `last ${s(run.firsts.maxMs)} (a workspace of ${int(run.firsts.lastSize)}); p50 ${s(run.firsts.p50Ms)}, p90 ${s(run.firsts.p90Ms)}; ${int(run.firsts.over30s)} of ${int(run.firsts.workspaces)} after 30 s${run.firsts.reached < run.firsts.workspaces ? `, ${int(run.firsts.workspaces - run.firsts.reached)} never` : ""}`,
      met: run.firsts.reached === run.firsts.workspaces && run.firsts.maxMs <= 30_000,
      why: `${floorsLine(run)}; ${st.digestsPerSec} digests/s`,
    },
    {
      target: TARGETS.ack,
      figure: `${ms(run.web.ackMs.p99)} (p50 ${ms(run.web.ackMs.p50)}; ${int(run.web.sent)} requests, ${int(run.web.timeouts)} timeouts)`,
      met: run.web.sent > 0 && run.web.ackMs.p99 <= 50,
      why: cpuLine(run),
    },
    {
      target: TARGETS.replies,
      figure: `${ms(run.web.replyMs.p99)} (p50 ${ms(run.web.replyMs.p50)}; ${int(run.web.replies)} replies, ${int(run.web.busy)} busy notes, ${int(run.web.lost)} lost)`,
      met: run.web.replies > 0 && run.web.replyMs.p99 <= 1_500 && run.web.lost === 0,
      why: cpuLine(run),
    },
  ];
  const held = run.held;
  out.push({
    target: TARGETS.held,
    figure: held
      ? `${int(held.bytesPerSub)} B per subscription ${held.afterS} s after (${int(n)} subscriptions)`
      : "not measured",
    met: held ? held.bytesPerSub <= 700 : null,
    why: held
      ? `largest key families (estimated from MEMORY USAGE of up to 200 keys each, bytes per subscription): ${held.families
          .slice(0, 6)
          .map((f) => `${f.family} ${int(f.bytes / n)} (${int(f.keys)} keys)`)
          .join(", ")}`
      : undefined,
  });
  const rss = Math.max(0, ...run.workerPeakRssMb);
  out.push({
    target: TARGETS.rss,
    figure: `${run.workerPeakRssMb.map((x) => `${x} MB`).join(", ")}; Redis peak ${run.redisPeakMb} MB (used_memory_peak ${run.redisPeakInfoMb} MB)`,
    met: run.workerPeakRssMb.length > 0 && rss <= MIB,
  });
  const sc = m.scaling;
  out.push(
    sc
      ? {
          target: `${TARGETS.scaling}${sc.subscriptions !== 10_000 ? ` (here ${int(sc.subscriptions)})` : ""}`,
          figure: `${sc.ratioTo90} × to 90 % of the slot (${sc.two?.rateTo90 ?? run.rateTo90} vs ${sc.one.rateTo90} digests/s); to the last digest ${sc.ratioAll} ×`,
          met: sc.ratioTo90 >= 1.6,
          why: `one worker: ${cpuLine(sc.one)}; two: ${cpuLine(sc.two ?? run)}`,
        }
      : notMeasured(TARGETS.scaling),
  );
  const wd = run.webDouble;
  out.push(
    wd
      ? {
          target: TARGETS.webDouble,
          figure: `${round(wd.busyShare * 100, 2)} % (${int(wd.result.busy)} of ${int(wd.result.sent)}); ack p99 ${ms(wd.result.ackMs.p99)}, replies p99 ${ms(wd.result.replyMs.p99)}, ${int(wd.result.lost)} lost`,
          met: wd.result.sent > 0 && wd.busyShare <= 0.01,
          why: `achieved ${wd.result.achievedRate} requests/s for ${s(wd.durationMs)} after one pass over everyone at 300/s, two worker processes answering; ${int(wd.result.timeouts)} timeouts`,
        }
      : notMeasured(TARGETS.webDouble),
  );
  return out;
}

function runRow(name: string, run: MondayRun): (string | number)[] {
  const st = run.storm;
  return [
    name,
    `${int(run.subscriptions)} / ${int(run.workspaces)} / ${int(run.accounts)} / ${run.workers}`,
    `${int(run.sizes.largest)} / ${int(run.sizes.median)} / ${int(run.sizes.smallest)}`,
    run.firstDigestMs === null ? "—" : ms(run.firstDigestMs),
    `${s(st.timeToShareMs.p50)} / ${s(st.timeToShareMs.p90)} / ${s(st.timeToAllMs)}`,
    `${st.digestsPerSec} (${run.rateTo90 ?? "—"})`,
    `${s(run.firsts.p50Ms)} / ${s(run.firsts.p90Ms)} / ${s(run.firsts.maxMs)}`,
    `${int(st.delivered)} / ${int(st.duplicates)} / ${int(st.lost)}`,
    `${int(run.channels.lost)} / ${int(run.channels.duplicated)}`,
    `${ms(run.web.ackMs.p99)} / ${ms(run.web.replyMs.p99)}`,
    run.workerPeakRssMb.map((x) => `${x}`).join(", "),
    `${run.redisPeakMb} MB`,
  ];
}

export function mondaySection(r: BenchResults): string {
  const m = r.monday;
  if (!m) return "";
  const run = m.slot;
  const n = run.subscriptions;
  const rows = [
    runRow("the slot", run),
    ...(m.scaling?.two ? [runRow("pair: two workers", m.scaling.two)] : []),
    ...(m.scaling ? [runRow("pair: one worker", m.scaling.one)] : []),
  ];
  const cpuRows = run.cpu.map((p) => [p.name, p.cpuS, round(p.cpuS / Math.max(0.1, run.slotS), 2)]);
  const held = run.held;
  return [
    "## Monday 09:00",
    "",
    `One slot of ${int(n)} subscriptions with the defaults (drivers and native charts on, the slot warmed 15 s ahead), WORKER_CONCURRENCY 50, over ${int(run.workspaces)} workspaces of very unequal size (Zipf–Mandelbrot: ${int(run.sizes.overThousand)} of 1,000 or more, half of ${int(run.sizes.median)} or fewer) sharing ${int(run.accounts)} analytics accounts; common ranges, a fifth of the subscriptions narrowed to an asset group and a tenth to a scanner, about two to a channel. The emulator answers after 100 ms; the Slack stand-in allows a message a second per channel. Two worker processes at WORKER_NICE, as \`insights-digest worker\` runs them, and one web process (OAuth) answering the ack section's realistic mix at ${int(m.plan.mixRate)} requests/s from the fire to the last digest, sent by ${int(run.mixFrom.people)} people of ${int(run.mixFrom.workspaces)} of the workspaces (spread over every size). The one-against-two pair runs ${int(m.scaling?.subscriptions ?? 0)} subscriptions the same way with one worker${m.scaling?.two ? " and with two" : " (its two-worker run is the slot)"}; "to 90 %" is 90 % of the slot over the time it took, before the largest workspaces' tails, which Slack's pacing per workspace spaces out whatever the workers do.`,
    "",
    table(
      [
        "Run",
        "Subs / workspaces / accounts / workers",
        "Largest / median / smallest workspace",
        "First digest",
        "50 % / 90 % / all out",
        "Digests/s (to 90 %)",
        "Workspaces' first: p50 / p90 / last",
        "Delivered / dup / lost",
        "Per channel: missing / extra",
        "Ack p99 / reply p99",
        "Worker peak RSS (MB)",
        "Redis peak",
      ],
      rows,
    ),
    "",
    `Floors from the world's sizes alone: ${floorsLine(run)}.`,
    "",
    ...tableUnder(
      `CPU over the slot (fire to last digest, ${run.slotS} s; from /proc, the sender without its answer sink; Redis from INFO cpu). Before the fire each worker had used ${run.workersBeforeFireCpuS.join(" and ")} s (start-up and the slot's warm-up).`,
      ["Process", "CPU s", "Cores"],
      cpuRows,
    ),
    ...(held
      ? tableUnder(
          `Redis ${held.afterS} s after the slot: ${int(held.bytesPerSub)} B per subscription over the memory before the subscriptions were made (INFO used_memory: ${held.info.dataset} MB of keys, ${held.info.overhead} MB besides, of it clients ${held.info.clients} MB, scripts ${held.info.scripts} MB, the AOF buffer ${held.info.aofBuffer} MB). By family of keys (every key counted with SCAN, MEMORY USAGE of up to 200 each, scaled to the family):`,
          ["Family", "Keys", "MB (estimated)", "B per subscription"],
          held.families
            .slice(0, 12)
            .map((f) => [`\`${f.family}\``, int(f.keys), round(f.bytes / 1e6, 2), int(f.bytes / n)]),
        )
      : []),
    ...(run.webDouble
      ? [
          `Two web processes (WEB_CONCURRENCY=2, fresh, one pass over everyone at 300/s first) at ${int(run.webDouble.rate)} requests/s for ${s(run.webDouble.durationMs)}, after the hold, the two workers answering: ${int(run.webDouble.result.busy)} busy notes of ${int(run.webDouble.result.sent)} (${round(run.webDouble.busyShare * 100, 2)} %), ack p99 ${ms(run.webDouble.result.ackMs.p99)}, replies p99 ${ms(run.webDouble.result.replyMs.p99)}, ${int(run.webDouble.result.lost)} lost.`,
          "",
        ]
      : []),
  ].join("\n");
}
