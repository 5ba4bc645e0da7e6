import type { BenchResults } from "../main.ts";
import { notMeasured, table } from "../markdown.ts";
import { int, round } from "../stats.ts";
import type { TargetCheck } from "../targets.ts";

/** The charts part of the bench report (issue 25): targets and the section's tables. */

const STORM = "storm with the defaults (charts on, drivers on) ≥ 0.7× the bare loop";

export function chartsTargets(r: BenchResults): TargetCheck[] {
  const c = r.charts;
  if (!c)
    return [
      notMeasured(STORM),
      notMeasured("no files.* call on the default path"),
      notMeasured("digest render with the chart block ≤ 1 ms p95"),
    ];
  const worst = c.render.reduce((a, b) => (b.p95Us > a.p95Us ? b : a));
  const out: TargetCheck[] = [
    {
      target:
        "digest render with the chart block (and the drivers table) ≤ 1 ms p95, 1 to 366 days and 5,000 assets",
      figure: `worst p95 ${round(worst.p95Us / 1000, 3)} ms (${worst.name}; p50 ${round(worst.p50Us / 1000, 3)} ms)`,
      met: c.worstP95Ms <= 1,
    },
  ];
  const native = c.storms.find((s) => s.mode === "native");
  if (!native) return [...out, notMeasured(STORM), notMeasured("no files.* call on the default path")];
  const row = native.row;
  out.push(
    {
      target: `${STORM}: ${int(row.subscriptions)} subscriptions over ${int(row.workspaces)} workspaces`,
      figure: `${row.ratio} × (${row.app.digestsPerSec} vs ${row.bareDigestsPerSec} digests/s; ${int(row.app.delivered)} delivered, ${int(row.app.lost)} lost)`,
      met: row.ratio >= 0.7 && row.app.lost === 0,
      why: "each delivery still asks the service for its digest, its drivers' slices and the previous period, and posts paced per channel; the bare loop asks one query and posts",
    },
    {
      target: "no files.* call on the default path",
      figure: `${int(row.app.filesCalls ?? 0)} files.* calls in the storm`,
      met: (row.app.filesCalls ?? 0) === 0,
    },
  );
  return out;
}

export function chartsSection(r: BenchResults): string {
  const c = r.charts;
  if (!c) return "## 7. Charts Slack draws\n\nNot measured (section not run or failed).";
  return [
    "## 7. Charts Slack draws",
    "",
    "Render: `digestMessage` of a scheduled digest with the chart block, the previous period and a drivers table of 12 asset groups and 6 scanners (the template's cost; the digest's own numbers are computed once per case), timed per call in the worker's steady state: after each case's first (cold) call, 100 rounds over every case, then 50 more calls of the case. The first call of each case is shown as measured: the run's very first call also compiles the templates.",
    "",
    table(
      ["case", "days", "chart points", "blocks", "p50 (µs)", "p95 (µs)", "first call (µs)"],
      c.render.map((x) => [
        x.name,
        int(x.days),
        int(x.points),
        int(x.blocks),
        String(x.p50Us),
        String(x.p95Us),
        x.firstUs === undefined ? "–" : String(x.firstUs),
      ]),
    ),
    "",
    "Storms: every subscription of the world due at the same second, one worker (WORKER_CONCURRENCY as in the storms above), emulator latency 100 ms, Slack 1 message/s per channel, a channel per subscription, the slot warmed from 1 s before its fire as in the storms above. `native`: the defaults (CHARTS on, drivers on, no chart setting). `off` (the full run only): CHARTS=off, drivers on: what the drivers alone cost, so native against off is what the chart costs. `png`: every workspace set to image charts (render, upload, files.info until processed). The bare loop posts a digest of the same size as the native one (chart block and table).",
    "",
    table(
      [
        "charts",
        "subscriptions",
        "workspaces",
        "digests/s",
        "bare digests/s",
        "ratio",
        "files.* calls",
        "lost",
        "time to all (s)",
      ],
      c.storms.map((s) => [
        s.mode,
        int(s.row.subscriptions),
        int(s.row.workspaces),
        String(s.row.app.digestsPerSec),
        String(s.row.bareDigestsPerSec),
        `${s.row.ratio} ×`,
        int(s.row.app.filesCalls ?? 0),
        int(s.row.app.lost),
        String(round(s.row.app.timeToAllMs / 1000, 1)),
      ]),
    ),
  ].join("\n");
}
