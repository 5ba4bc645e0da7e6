import { ackTargets } from "./ack/report.ts";
import { chartsTargets } from "./charts/report.ts";
import { driversTargets } from "./drivers/report.ts";
import { engineTargets } from "./engine/report.ts";
import type { BenchResults } from "./main.ts";
import { faultMeasured, notMeasured } from "./markdown.ts";
import { mondayTargets } from "./monday/report.ts";
import { int, round } from "./stats.ts";
import { STORM_BOUND, STORM_SPREAD, type StormRow } from "./storm/section.ts";

/** One target of issue 8, with the figure this run measured and whether it is met. */
export interface TargetCheck {
  target: string;
  figure: string;
  /** null: not measured in this run (say why in `figure`). */
  met: boolean | null;
  /** When missed: what this run measured alongside the figure (computed from the run, never fixed text). */
  why?: string;
}

const ms = (n: number) => `${round(n, 1)} ms`;

/** What a storm measured besides its throughput: Slack's 429s and errors, failures, the machine's CPU. */
function stormMeasured(s: StormRow): string {
  const errors = Object.entries(s.app.slackErrors)
    .map(([k, v]) => `${k} ×${int(v)}`)
    .join(", ");
  return `measured alongside: ${int(s.app.rateLimited429)} Slack 429s${errors ? ` (Slack errors: ${errors})` : ""}, ${int(s.app.failedJobs)} failed jobs, worker peak RSS ${s.app.workerPeakRssMb} MB, machine CPU ${s.app.cpu.machinePct} % (${s.app.cpu.othersPct} % other processes); the bare loop drew ${int(s.bare.rateLimited)} 429s`;
}

function stormTargets(r: BenchResults): TargetCheck[] {
  const out: TargetCheck[] = r.storms.map((s) => ({
    target: `storm throughput with the defaults ≥ ${STORM_BOUND} × bare loop (${int(s.subscriptions)} subs, ${int(s.workspaces)} workspaces, ${s.subsPerChannel}/channel)`,
    figure: s.ratios
      ? `median ${s.ratio} × of ${s.ratios.length} runs (${s.ratios.join(", ")} ×; the median run: ${s.app.digestsPerSec} vs ${s.bareDigestsPerSec} digests/s)`
      : `${s.ratio} × (${s.app.digestsPerSec} vs ${s.bareDigestsPerSec} digests/s; one run, clear of the bound by more than ${STORM_SPREAD})`,
    met: s.ratio >= STORM_BOUND,
    why: stormMeasured(s),
  }));
  const tenK = r.storms.filter((s) => s.subscriptions >= 10_000);
  if (tenK.length > 0) {
    for (const s of tenK)
      out.push({
        target: `10,000 text digests delivered in ≤ 60 s (${s.subsPerChannel}/channel)`,
        figure: `${round(s.app.timeToAllMs / 1000, 1)} s${s.app.delivered < s.subscriptions ? ` (only ${int(s.app.delivered)} delivered)` : ""}`,
        met: s.app.timeToAllMs <= 60_000 && s.app.delivered >= 10_000,
        why: `${int(s.app.delivered)} delivered at ${s.app.digestsPerSec} digests/s (60 s needs ${round(s.subscriptions / 60, 0)}/s)${s.app.timedOut ? ", stopped at the bench's time limit" : ""}; ${stormMeasured(s)}`,
      });
  } else {
    const best = [...r.storms].sort((a, b) => b.app.digestsPerSec - a.app.digestsPerSec)[0];
    out.push({
      target: "10,000 text digests delivered in ≤ 60 s",
      figure: best
        ? `not run in --quick; at the best quick rate (${best.app.digestsPerSec}/s, ${best.subsPerChannel}/channel) 10,000 take ≈ ${round(10_000 / Math.max(0.1, best.app.digestsPerSec), 0)} s`
        : "not measured",
      met: null,
    });
  }
  const after =
    r.storms.find((s) => s.app.memoryAfter && s.subscriptions >= 10_000) ??
    r.storms.find((s) => s.app.memoryAfter);
  const m = after?.app.memoryAfter;
  out.push({
    target: `≤ 700 B of Redis per subscription after its first fire${after ? ` (${int(after.subscriptions)} subscriptions)` : ""}`,
    figure: m
      ? `${int(m.perSub.total - m.perSub.transient)} B durable + ${int(m.perSub.transient)} B for under a minute (MEMORY USAGE; INFO delta ${int(m.infoDeltaPerSub)} B)`
      : "not measured",
    met: m ? m.perSub.total - m.perSub.transient <= 700 : null,
    why: m
      ? `durable bytes per subscription: record ${int(m.perSub.record)}, indexes ${int(m.perSub.indexes)}, claims ${int(m.perSub.claims)}, queue ${int(m.perSub.queue)}, events stream ${int(m.perSub.events)}`
      : undefined,
  });
  return out;
}

function renderTargets(r: BenchResults): TargetCheck[] {
  if (!r.render) return [notMeasured("chart ≤ 50 ms warm; digest render ≤ 1 ms")];
  return [
    {
      target: "chart ≤ 50 ms warm (p95)",
      figure: `${ms(r.render.chart.warmMs.p95)} (p50 ${ms(r.render.chart.warmMs.p50)})`,
      met: r.render.chart.warmMs.p95 <= 50,
    },
    {
      target: "digest render ≤ 1 ms (compute + template, worst case)",
      figure: `${round(r.render.worstRenderMs * 1000, 0)} µs`,
      met: r.render.worstRenderMs <= 1,
    },
  ];
}

function faultTargets(r: BenchResults): TargetCheck[] {
  if (r.faults.length === 0) return [notMeasured("0 lost and 0 duplicated digests in every fault run")];
  return r.faults.map((f) => ({
    target: `0 lost, 0 duplicated: ${f.name}`,
    figure: `${int(f.result.delivered)} delivered, ${int(f.result.lost)} lost, ${int(f.result.duplicates)} duplicated`,
    met: f.result.lost === 0 && f.result.duplicates === 0,
    why: faultMeasured(f.result),
  }));
}

function badTargets(r: BenchResults): TargetCheck[] {
  const b = r.badInput;
  if (!b) return [notMeasured("bad input: 0 crashes, 0 unhandled rejections, 0 unhelpful replies")];
  const parts = [
    ["fuzzed slash texts", b.fuzz, b.fuzz.result.unhelpful, b.fuzz.result.sent],
    ["malformed analytics replies", b.analytics, b.analytics.result.unhelpful, b.analytics.result.sent],
    [
      "malformed or forged Slack requests",
      b.slack,
      b.slack.result.unhelpful + b.slack.result.serverErrors + b.slack.result.forgedAccepted,
      b.slack.result.sent,
    ],
  ] as const;
  return parts.map(([name, p, unhelpful, sent]) => ({
    target: `bad input, ${int(sent)} ${name}: 0 crashes, 0 unhandled rejections, 0 unhelpful`,
    figure: `${p.crashes} crashes, ${p.unhandledRejections} unhandled rejections, ${unhelpful} unhelpful`,
    met: p.crashes === 0 && p.unhandledRejections === 0 && unhelpful === 0,
  }));
}

/** Only when measured (`--only worker-cpu` or the full run): a quick run has no row for it. */
function workerCpuTargets(r: BenchResults): TargetCheck[] {
  const w = r.workerCpu;
  if (!w) return [];
  const { pairs } = w;
  const list = (f: (p: (typeof pairs)[number]) => number) => pairs.map(f).join(" / ");
  return [
    {
      target: `worker CPU per delivery with drivers ≤ 1.5 × without (${int(w.storm.subscriptions)} / ${int(w.storm.workspaces)} storm, median of alternated pairs)`,
      figure: `${w.median} × over ${pairs.length} pairs (${list((p) => p.ratio)} ×)`,
      met: w.median <= 1.5,
      why: `measured alongside: worker CPU per digest without drivers ${list((p) => p.plainMs)} ms, with ${list((p) => p.driversMs)} ms; digests/s ${list((p) => p.plainPerSec)} and ${list((p) => p.driversPerSec)}`,
    },
  ];
}

function askTargets(r: BenchResults): TargetCheck[] {
  const target = "plain-language question: reply p95 ≤ 1.5 s (DM to answer, emulator's default latency)";
  const a = r.ask;
  if (!a) return [notMeasured(target)];
  const p95 = a.replyMs.p95 ?? a.replyMs.p90;
  return [
    {
      target,
      figure: `${ms(p95)} (p50 ${ms(a.replyMs.p50)}, max ${ms(a.replyMs.max)}; first round p95 ${ms(a.firstRoundReplyMs.p95 ?? 0)}; ${a.questions} questions)`,
      met: p95 <= 1_500,
      why: `measured alongside: slowest question ${JSON.stringify(a.slowest.question)} at p50 ${ms(a.slowest.ms)}; reading one question ${a.readUs.demo} µs (5,000 assets: ${a.readUs.assets5000} µs${a.readPerQuestionUs ? `; p99 per question ${a.readPerQuestionUs.demo.p99} µs` : ""}); ack p99 ${ms(a.ackMs.p99)}`,
    },
  ];
}

export function checkTargets(r: BenchResults): TargetCheck[] {
  return [
    ...ackTargets(r),
    ...stormTargets(r),
    ...renderTargets(r),
    ...faultTargets(r),
    ...badTargets(r),
    ...driversTargets(r),
    ...chartsTargets(r),
    ...engineTargets(r),
    ...askTargets(r),
    ...workerCpuTargets(r),
    ...mondayTargets(r),
  ];
}
