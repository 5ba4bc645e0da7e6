import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createChartRenderer } from "../../src/chart/index.ts";
import type { ChartInput } from "../../src/chart/types.ts";
import { makeSeries } from "../unit/chart-helpers.ts";

/** Trend chart bench: SVG build + resvg render + PNG encode, per chart. Run alone: `npx tsx test/bench/chart.ts`. */

const TARGET_MS = 50;
const WARM_UPS = 3;

export interface ChartBenchResult {
  name: string;
  /** Over all warm renders of both charts. */
  warmMs: { p50: number; p95: number; mean: number };
  /** A new renderer's first chart: font paths resolved, options built, first render. */
  coldMs: number;
  target: string;
  met: boolean;
  cases: Array<{ days: number; p50: number; p95: number; pngBytes: number }>;
}

export async function benchChart(opts: { iterations?: number } = {}): Promise<ChartBenchResult> {
  const iterations = Math.max(1, opts.iterations ?? 30);
  const inputs: ChartInput[] = [30, 365].map((days) => ({
    title: `Last ${days} days · payments / api`,
    subtitle: "Findings, violations and fixes per day",
    series: makeSeries(days, "2026-01-01", { gaps: [5, 6] }),
  }));

  const coldStart = performance.now();
  const renderer = createChartRenderer();
  renderer.render(inputs[0] as ChartInput);
  const coldMs = performance.now() - coldStart;

  const all: number[] = [];
  const cases: ChartBenchResult["cases"] = [];
  for (const input of inputs) {
    let pngBytes = 0;
    for (let i = 0; i < WARM_UPS; i += 1) pngBytes = renderer.render(input).byteLength;
    const samples: number[] = [];
    for (let i = 0; i < iterations; i += 1) {
      const start = performance.now();
      renderer.render(input);
      samples.push(performance.now() - start);
    }
    all.push(...samples);
    cases.push({
      days: input.series.length,
      p50: round(quantile(samples, 0.5)),
      p95: round(quantile(samples, 0.95)),
      pngBytes,
    });
  }
  const warmMs = {
    p50: round(quantile(all, 0.5)),
    p95: round(quantile(all, 0.95)),
    mean: round(all.reduce((a, b) => a + b, 0) / all.length),
  };
  return {
    name: "chart: 30- and 365-day trend PNG (800×400)",
    warmMs,
    coldMs: round(coldMs),
    target: `warm p95 ≤ ${TARGET_MS} ms per chart`,
    met: warmMs.p95 <= TARGET_MS,
    cases,
  };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
  return sorted[Math.max(0, at)] ?? 0;
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

const invokedPath = process.argv[1];
if (invokedPath && import.meta.url === pathToFileURL(realpathSync(invokedPath)).href) {
  const result = await benchChart({});
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  if (!result.met) process.exitCode = 1;
}
