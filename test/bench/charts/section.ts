import { accountFor, buildAccount, DEMO_API_KEY } from "../../../sandbox/analytics/index.ts";
import { computeDrivers, type Slice } from "../../../src/insights/drivers.ts";
import type { DigestView } from "../../../src/insights/types.ts";
import { createKeyScheme } from "../../../src/store/keys.ts";
import { createWorkspaceSettings } from "../../../src/store/workspace-settings.ts";
import { digestMessage } from "../../../templates/digest-message.ts";
import { replyFor, scheduledView, viewOf } from "../sample-digest.ts";
import { quantile, round } from "../stats.ts";
import { runStormRow, type StormRow } from "../storm/section.ts";
import { teamOf } from "../storm/world.ts";

/**
 * Charts Slack draws, in numbers: the render of a digest carrying the chart block (and the drivers
 * table) over ranges of 1 to 366 days and for 5,000 assets, p50 and p95 per call; and a storm of
 * scheduled digests with the defaults (charts on, drivers on) against the bare loop, with the files.*
 * calls it made (none are expected), beside the same storm with the image chart (the old default).
 */

export interface ChartsPlan {
  /** Timed renders per case. */
  iterations: number;
  /** The storm with the defaults: `subscriptions` over `workspaces`. */
  storm: { subscriptions: number; workspaces: number };
  /** The same storm with image charts; null: not run. */
  pngStorm: { subscriptions: number; workspaces: number } | null;
  /** The same storm with charts off (drivers alone), the yardstick for what the chart costs; null: not run. */
  offStorm: { subscriptions: number; workspaces: number } | null;
  concurrency: number;
  timeoutMs: number;
}

export interface RenderRow {
  name: string;
  days: number;
  /** Categories on the chart. */
  points: number;
  blocks: number;
  /** computeDigest-free: the template with the chart and the table (digestMessage), µs. */
  p50Us: number;
  p95Us: number;
  /** The case's first call in this process, before any warm-up (the whole run's first call is the coldest), µs. */
  firstUs?: number;
}

export interface ChartsStorm {
  /** "native": the defaults; "off": CHARTS=off (drivers alone); "png": every workspace set to image charts. */
  mode: "native" | "off" | "png";
  row: StormRow;
}

export interface ChartsBenchResult {
  render: RenderRow[];
  /** The worst p95 of the render rows, ms. */
  worstP95Ms: number;
  storms: ChartsStorm[];
}

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Drivers of a typical breakdown (12 asset groups, 6 scanners), for the table's size. */
function sampleDrivers(): NonNullable<DigestView["drivers"]> {
  const pair = (c: number, p: number) => ({ current: c, previous: p });
  const totals = (i: number) => ({
    violations: pair(40 + i * 7, 35 + ((i * 11) % 40)),
    findings: pair(120 + i * 9, 110 + ((i * 13) % 90)),
    fixes: pair(10 + (i % 5), 8 + (i % 7)),
  });
  const slices: Slice[] = [
    ...Array.from({ length: 12 }, (_, i) => ({
      dimension: "group" as const,
      key: `group-${i}`,
      label: `group-${i}/*`,
      totals: totals(i),
    })),
    ...Array.from({ length: 6 }, (_, i) => ({
      dimension: "scanner" as const,
      key: `scanner-${i}`,
      label: `Scanner ${i}`,
      totals: totals(i + 3),
    })),
  ];
  const sum = (m: "violations" | "findings" | "fixes", k: "current" | "previous") =>
    slices.filter((s) => s.dimension === "group").reduce((n, s) => n + s.totals[m][k], 0);
  const total = {
    violations: pair(sum("violations", "current"), sum("violations", "previous")),
    findings: pair(sum("findings", "current"), sum("findings", "previous")),
    fixes: pair(sum("fixes", "current"), sum("fixes", "previous")),
  };
  return {
    drivers: computeDrivers({ total, slices }),
    gaps: [],
    groups: [],
    queries: 19,
    unqueriedGroups: 0,
  };
}

/** A scheduled digest as the worker posts it by default: chart block, previous period, drivers table. */
export function nativeView(account: Parameters<typeof replyFor>[0], days: number): DigestView {
  const from = addDays(TODAY, 1 - days);
  const range = days === 1 ? TODAY : `${from}..${TODAY}`;
  const view = viewOf(replyFor(account, from, TODAY, TODAY), range, NOW, {
    attribution: "Scheduled digest · Daily at 09:00 UTC",
  });
  const previous = replyFor(account, addDays(from, -days), addDays(from, -1), TODAY);
  const previousSeries = viewOf(previous, `${addDays(from, -days)}..${addDays(from, -1)}`, NOW).digest.series;
  return { ...view, chartStyle: "native", previousSeries, drivers: sampleDrivers() };
}

function renderRow(name: string, view: DigestView, iterations: number, firstUs?: number): RenderRow {
  const message = digestMessage(view);
  for (let i = 0; i < 50; i++) digestMessage(view);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t = performance.now();
    digestMessage(view);
    samples.push((performance.now() - t) * 1000);
  }
  const chart = message.blocks.find((b) => b.type === "data_visualization");
  return {
    name,
    days: view.digest.range.days,
    points: chart?.type === "data_visualization" ? chart.chart.axis_config.categories.length : 0,
    blocks: message.blocks.length,
    p50Us: round(quantile(samples, 0.5), 1),
    p95Us: round(quantile(samples, 0.95), 1),
    ...(firstUs === undefined ? {} : { firstUs: round(firstUs, 1) }),
  };
}

/** Microseconds of one call. */
function timeOne(f: () => unknown): number {
  const t = performance.now();
  f();
  return (performance.now() - t) * 1000;
}

/**
 * What the bare loop posts against a storm with the defaults: a digest of the same size as the
 * worker's, with the chart block and the drivers table.
 */
export function defaultsBareMessage(
  world: Parameters<NonNullable<Parameters<typeof runStormRow>[0]["bareMessage"]>>[0],
): { text: string; blocks: unknown[] } {
  const sample = world.subs[0];
  if (!sample) throw new Error("no subscriptions");
  const text = scheduledView(sample.apiKey, "last7d");
  const m = digestMessage({
    ...text,
    chartStyle: "native",
    previousSeries: text.digest.series,
    drivers: sampleDrivers(),
  });
  return { text: m.text, blocks: m.blocks };
}

export async function measureCharts(
  plan: ChartsPlan,
  log: (line: string) => void,
): Promise<ChartsBenchResult> {
  const demo = accountFor(DEMO_API_KEY);
  if (!demo) throw new Error("the demo account is missing");
  const big = buildAccount({ apiKey: "bench-5000-assets", assetCount: 5000 });
  const cases: [string, DigestView, number][] = [
    ...[1, 7, 30, 90, 366].map((days): [string, DigestView, number] => [
      `${days} days, demo account`,
      nativeView(demo, days),
      plan.iterations,
    ]),
    ["30 days, 5,000 assets", nativeView(big, 30), Math.max(100, Math.floor(plan.iterations / 5))],
  ];
  // Each case's first call, cold: the first of the run also pays for compiling the templates.
  const firsts = cases.map(([, view]) => timeOne(() => digestMessage(view)));
  // A worker renders every kind of digest all day: the cases are timed in its steady state, after
  // rounds over all of them (the first case timed used to run right after its own 50 calls, before
  // the optimiser had seen the others, and carried the warm-up into its p95).
  for (let round = 0; round < 100; round++) for (const [, view] of cases) digestMessage(view);
  const render = cases.map(([name, view, iterations], i) => renderRow(name, view, iterations, firsts[i]));
  const storms: ChartsStorm[] = [];
  const runs: [ChartsStorm["mode"], ChartsPlan["storm"] | null][] = [
    ["native", plan.storm],
    ["off", plan.offStorm],
    ["png", plan.pngStorm],
  ];
  for (const [mode, size] of runs) {
    if (!size) continue;
    log(
      `  storm with ${mode} charts: ${size.subscriptions} subscriptions over ${size.workspaces} workspaces`,
    );
    const row = await runStormRow({
      ...size,
      subsPerChannel: 1,
      concurrency: plan.concurrency,
      timeoutMs: plan.timeoutMs,
      // The defaults: charts on (the world's own default is off), drivers on (the records' default).
      env: { CHARTS: mode === "off" ? "off" : "on" },
      prepare:
        mode === "png"
          ? async (world) => {
              const settings = createWorkspaceSettings({
                redis: world.conn,
                keys: createKeyScheme({ prefix: world.prefix }),
              });
              for (let w = 0; w < size.workspaces; w++) await settings.setChart({ teamId: teamOf(w) }, "png");
            }
          : undefined,
      bareMessage: defaultsBareMessage,
    });
    storms.push({ mode, row });
  }
  return { render, worstP95Ms: Math.max(...render.map((r) => r.p95Us)) / 1000, storms };
}
