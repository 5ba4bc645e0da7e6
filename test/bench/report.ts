import { ackSection } from "./ack/report.ts";
import { chartsSection } from "./charts/report.ts";
import { driversSection } from "./drivers/report.ts";
import { engineSection } from "./engine/report.ts";
import type { BenchResults } from "./main.ts";
import { benchCommand, faultCells, seconds, table } from "./markdown.ts";
import { mondaySection } from "./monday/report.ts";
import { int, round } from "./stats.ts";
import { checkTargets, type TargetCheck } from "./targets.ts";

/** The Markdown report of one run: targets first, then each section's table, then what was measured alongside the misses. */

const ms = (n: number | null | undefined) => (n === null || n === undefined ? "—" : `${round(n, 1)} ms`);
const s = seconds;
const mark = (t: TargetCheck) => (t.met === null ? "– not measured" : t.met ? "✅ met" : "❌ missed");

function targetsTable(r: BenchResults): string {
  return table(
    ["Target", "This run", "Verdict"],
    checkTargets(r).map((t) => [t.target, t.figure, mark(t)]),
  );
}

function header(r: BenchResults): string {
  const m = r.meta;
  const p = m.plan;
  return [
    `# Performance and reliability — ${m.quick ? "quick run" : "full run"} of ${m.startedAt.slice(0, 16).replace("T", " ")} UTC`,
    "",
    `\`${benchCommand(m)}\` · ${m.durationS} s · commit ${m.commit} · Node ${m.node}${m.machineNode ? ` (the machine runs ${m.machineNode})` : ""} · ${m.cpus} × ${m.cpuModel} · load average ${m.loadAvgStart.join(" / ")} at start, ${m.loadAvgEnd.join(" / ")} at the end. All traffic on loopback: the app, a bare Bolt app, Redis (private, AOF on), the analytics emulator and the Slack stand-in on this one machine. ${m.product === "dist" ? "The app's processes (the ack section's, the storms' workers) run the compiled build (dist/), as a production install does." : m.product === "sources" ? "The app's processes run the TypeScript sources through tsx (no fresh build): not what a production install runs." : ""}`,
    "",
    m.only
      ? `Sections run: ${m.only.join(", ")} (the others were not run; their targets read "not measured"). Drivers: ${p.drivers.timingRuns} timed digests per cell (at 300 ms of latency ${p.drivers.slowTimingRuns ?? p.drivers.timingRuns}), ${p.drivers.storms.length} storms.`
      : `Counts: ack ${p.ack.rates.join(" / ")} requests/s for ${s(p.ack.durationMs)} each (and ${p.ackUnderStorm.rate}/s for ${s(p.ackUnderStorm.durationMs)} during a storm); storms ${p.storms.map((x) => `${int(x.subscriptions)} subs / ${int(x.workspaces)} workspaces (${x.subsPerChannel} per channel)`).join(", ")} at concurrency ${p.concurrency}; faults ${int(p.faults.subscriptions)} subs / ${int(p.faults.workspaces)} workspaces each; render ${int(p.render.iterations)} iterations, chart ${p.render.chartIterations}; bad input ${int(p.badInput.fuzz)} texts, ${int(p.badInput.analytics)} analytics replies, ${int(p.badInput.slack)} Slack requests.`,
    ...(m.sections && m.sections.length > 0
      ? ["", `Time per section: ${m.sections.map((x) => `${x.name} ${x.seconds} s`).join(" · ")}.`]
      : []),
    ...(m.errors.length > 0 ? ["", `**Sections that failed in this run:** ${m.errors.join("; ")}`] : []),
  ].join("\n");
}

function stormSection(r: BenchResults): string {
  const rows = r.storms.map((x) => [
    `${int(x.subscriptions)} / ${int(x.workspaces)} / ${x.subsPerChannel}`,
    s(x.app.timeToAllMs),
    `${s(x.app.timeToShareMs.p50)} / ${s(x.app.timeToShareMs.p90)} / ${s(x.app.timeToShareMs.p99)}`,
    `${x.app.digestsPerSec}`,
    `${x.bareDigestsPerSec} (${s(x.bare.ms)}, ${int(x.bare.rateLimited)} × 429)`,
    `${x.ratio}`,
    `${int(x.app.delivered)} / ${int(x.app.duplicates)} / ${int(x.app.lost)} / ${int(x.app.failureNotices + x.app.failedJobs)}`,
    int(x.app.rateLimited429),
    `${x.app.workerPeakRssMb} MB`,
    // Results written before this figure existed have none.
    x.app.workerCpuMsPerDigest === undefined ? "–" : `${x.app.workerCpuMsPerDigest} ms`,
    s(x.app.createMs),
    `${x.app.cpu.machinePct} / ${x.app.cpu.othersPct} %`,
  ]);
  const memRow = (x: (typeof r.storms)[number], m: NonNullable<typeof x.app.memory>, when: string) => {
    const p = m.perSub;
    return [
      `${int(x.subscriptions)} / ${x.subsPerChannel}, ${when}`,
      p.record,
      p.indexes,
      p.claims,
      p.transient,
      p.queue,
      p.events,
      `**${int(p.total)}**`,
      int(m.infoDeltaPerSub),
    ];
  };
  const mem = r.storms.flatMap((x) => [
    ...(x.app.memory ? [memRow(x, x.app.memory, "before the fire")] : []),
    ...(x.app.memoryAfter ? [memRow(x, x.app.memoryAfter, "after it")] : []),
  ]);
  return [
    "## 2. Digest storms",
    "",
    "Every subscription is a daily schedule firing at the same second (BullMQ job schedulers, created the way `subscriptions.create` stores them); one delivery worker process (`startWorker`, WORKER_CONCURRENCY as below, with the defaults: drivers and native charts on) is running before they fire. Its lookahead warms the slot's drivers from 1 s before the fire (SLOT_WARM_LEAD_SECONDS=1, against the product's default of 15 s: the storm fires 1 s later than its set-up needs, so each sees the warm-up production gives, with less time for it); digests/s count from the fire, the worker's CPU per digest from the set-up's end, so the work done ahead is counted. The analytics emulator answers after 100 ms; the Slack stand-in allows 1 message/s per channel and answers 429 + Retry-After past it. Subscriptions of one workspace ask for different ranges, so no two share a cached reply. Counts come from what the stand-in received. The bare loop makes only the GraphQL query and chat.postMessage (a ready digest of the same size, chart block and drivers table) per digest at the same concurrency, waiting Retry-After on a 429.",
    "",
    table(
      [
        "Subs / workspaces / per channel",
        "Time to all",
        "50 / 90 / 99 % by",
        "Digests/s",
        "Bare loop digests/s",
        "Ratio",
        "Delivered / dup / lost / failed",
        "429s",
        "Worker peak RSS",
        "Worker CPU / digest",
        "Set-up",
        "Machine CPU / others'",
      ],
      rows,
    ),
    "",
    "Redis bytes per subscription (MEMORY USAGE of every key, divided by the count, right after creating them and right after the fire; claims live 36 h, the transient part (pacing counters, insights cache) under a minute; the last column is INFO used_memory's growth per subscription since before they were made, allocator overhead included):",
    "",
    table(
      [
        "Subs / per channel",
        "Record",
        "Indexes",
        "Claims",
        "Transient",
        "Queue",
        "Events stream",
        "Total",
        "INFO delta",
      ],
      mem,
    ),
  ].join("\n");
}

function renderSection(r: BenchResults): string {
  const x = r.render;
  if (!x) return "## 3. Render cost\n\nNot measured (section failed).";
  return [
    "## 3. Render cost (pure code, no I/O)",
    "",
    table(
      [
        "Digest",
        "Validate reply",
        "Range + computeDigest",
        "Template",
        "Compute + template",
        "Blocks",
        "JSON bytes",
      ],
      x.cases.map((c) => [
        c.name,
        `${c.validateUs} µs`,
        `${c.computeUs} µs`,
        `${c.templateUs} µs`,
        `**${c.renderUs} µs**`,
        c.blocks,
        int(c.jsonBytes),
      ]),
    ),
    "",
    `Chart (benchChart: SVG + resvg + PNG, 800×400): warm p50 ${ms(x.chart.warmMs.p50)}, p95 ${ms(x.chart.warmMs.p95)}, cold first chart ${ms(x.chart.coldMs)}; ${x.chart.cases.map((c) => `${c.days} days: p50 ${ms(c.p50)}, ${int(c.pngBytes)} B`).join("; ")}.`,
  ].join("\n");
}

function faultSection(r: BenchResults): string {
  return [
    "## 4. Faults",
    "",
    "Each run: a fresh world of its own (Redis or a 3-master cluster, the stand-ins, one channel per subscription), the worker running, all subscriptions due at once, then the fault. All eight runs (four faults on a single node, the same four on a cluster) run side by side, so each run's time and its worker starts include the load of the seven others. Retries back off from 1 s (production: 30 s), a dead worker's claim lease, job locks and its locks on shared insights and drivers fetches run out after 10 s (production: 120 s / 30 s / 30 s), analytics calls time out after 2 s (production: 4 s), so every run ends within the bench's budget.",
    "",
    table(
      [
        "Fault",
        "What happens",
        "Delivered",
        "Lost",
        "Duplicated",
        "Failure notices",
        "Time to all",
        "Worker starts",
      ],
      r.faults.map((f) => [
        f.name,
        f.what,
        ...faultCells(f.result),
        f.result.workerStartMs.map((x) => `${x} ms`).join(", "),
      ]),
    ),
  ].join("\n");
}

type BadInputRun = NonNullable<BenchResults["badInput"]>["fuzz" | "analytics" | "slack"];

/** One row of the bad-input table; `unhelpful` replaces the plain count where a run says more. */
function badInputRow(input: string, run: BadInputRun, unhelpful: string = int(run.result.unhelpful)) {
  const r = run.result;
  return [
    input,
    int(r.sent),
    JSON.stringify(r.statuses),
    int(r.replies),
    unhelpful,
    run.crashes,
    run.unhandledRejections,
  ];
}

function badSection(r: BenchResults): string {
  const b = r.badInput;
  if (!b) return "## 5. Bad input\n\nNot measured (section failed).";
  const sl = b.slack.result;
  return [
    "## 5. Bad input",
    "",
    table(
      ["Input", "Sent", "App answers", "Replies", "Unhelpful", "Crashes", "Unhandled rejections"],
      [
        badInputRow("Fuzzed slash texts (fast-check, seeded)", b.fuzz),
        badInputRow("Malformed analytics replies through the real client", b.analytics),
        badInputRow(
          "Malformed, unsigned or replayed Slack requests (15 kinds)",
          b.slack,
          `${int(sl.unhelpful)} replies, ${int(sl.serverErrors)} 5xx/no answer, ${int(sl.forgedAccepted)} forged accepted`,
        ),
      ],
    ),
    "",
    "Unhelpful = no reply, a reply Slack would reject (Block Kit limits), the \"something went wrong on our side\" fallback, or the catch-all title with no explanation. Crashes = uncaught exceptions in the app's process plus a failed /healthz afterwards. The app here is its own (`start` in the bench's process), run beside the fault runs when both sections run: what it counts is outcomes, not time.",
    ...(Object.keys(sl.slowAnswers).length > 0
      ? [
          "",
          `Answered only after 3 s (Bolt's unhandled-request timeout, 404): ${Object.entries(sl.slowAnswers)
            .map(([k, v]) => `${k} ×${v}`)
            .join(", ")}.`,
        ]
      : []),
    ...([...b.fuzz.result.problems, ...b.analytics.result.problems, ...sl.problems].length > 0
      ? [
          "",
          "First problems seen:",
          "",
          ...[...b.fuzz.result.problems, ...b.analytics.result.problems, ...sl.problems]
            .slice(0, 8)
            .map((p) => `- \`${p.replace(/`/g, "'")}\``),
        ]
      : []),
  ].join("\n");
}

function askSection(r: BenchResults): string {
  const a = r.ask;
  if (!a) return "";
  const row = (name: string, x: typeof a.replyMs) => [name, x.n, ms(x.p50), ms(x.p95 ?? 0), ms(x.max)];
  return [
    "## Questions in plain words",
    "",
    `${a.askers ?? 1} people of one time zone take turns asking ${a.questions / a.rounds} questions in the app's DM, ${a.rounds} rounds, one at a time, each answered before the next (each person's at least 1.1 s apart: Slack's one message a second in a conversation); reply = question sent to the answer's chat.postMessage at the Slack stand-in. The emulator adds no latency.`,
    "",
    table(
      ["", "n", "p50", "p95", "max"],
      [
        row("Reply", a.replyMs),
        row("Reply, first round (nothing cached)", a.firstRoundReplyMs),
        row("Ack of the DM", a.ackMs),
      ],
    ),
    "",
    `Before them, ${a.warmupMs.length} questions right after the app started (not counted): ${a.warmupMs.map((x) => ms(x)).join(", ")}. Slowest question: ${JSON.stringify(a.slowest.question)} (p50 ${ms(a.slowest.ms)}). Reading one question (pure reader, corpus of 270): ${a.readUs.demo} µs; with 5,000 assets ${a.readUs.assets5000} µs.${readerLine(a)}`,
  ].join("\n");
}

/** The reader's time question by question over every corpus, when the report has it. */
function readerLine(a: NonNullable<BenchResults["ask"]>): string {
  const t = a.readPerQuestionUs;
  if (!t) return "";
  return ` Question by question over every corpus (${t.questions}): p50 ${t.demo.p50} µs, p99 ${t.demo.p99} µs, max ${t.demo.max} µs; with 5,000 assets p99 ${t.assets5000.p99} µs.`;
}

function notesSection(r: BenchResults): string {
  const missed = checkTargets(r).filter((t) => t.met === false && t.why);
  if (missed.length === 0) return "";
  return [
    "## Measured alongside the missed targets",
    "",
    "What this run measured next to each missed figure (computed from the run; causes are for the reader to judge).",
    "",
    ...missed.map((t) => `- **${t.target}** (${t.figure}): ${t.why}.`),
  ].join("\n");
}

export function renderReport(r: BenchResults, extraNotes = ""): string {
  return [
    header(r),
    "",
    "## Targets",
    "",
    targetsTable(r),
    "",
    ackSection(r),
    "",
    stormSection(r),
    "",
    renderSection(r),
    "",
    faultSection(r),
    "",
    engineSection(r),
    "",
    badSection(r),
    "",
    driversSection(r),
    "",
    chartsSection(r),
    "",
    askSection(r),
    "",
    mondaySection(r),
    "",
    notesSection(r),
    extraNotes,
    "",
  ].join("\n");
}
