import { accountFor, buildAccount, computeInsights, DEMO_API_KEY } from "../../sandbox/analytics/index.ts";
import { parseInsightsData } from "../../src/analytics/schema.ts";
import type { InsightsResult } from "../../src/analytics/types.ts";
import { digestMessage } from "../../templates/digest-message.ts";
import { benchChart, type ChartBenchResult } from "./chart.ts";
import { viewOf } from "./sample-digest.ts";
import { microsPerCall } from "./stats.ts";

/** Per-digest CPU cost of the pure core, from many iterations: no I/O, time passed in. */
export interface RenderCase {
  name: string;
  /** Validating the GraphQL reply (the client's check: the plain reader, zod for what it refuses), µs. */
  validateUs: number;
  /** Range resolution (caller's zone) + computeDigest, µs. */
  computeUs: number;
  /** digestMessage: Block Kit blocks + summary text, µs. */
  templateUs: number;
  /** compute + template: what every digest pays after the data arrives, µs. */
  renderUs: number;
  blocks: number;
  jsonBytes: number;
}

export interface RenderResult {
  iterations: number;
  cases: RenderCase[];
  /** The worst case's render time, ms. */
  worstRenderMs: number;
  chart: ChartBenchResult;
}

const NOW = new Date("2026-11-21T12:00:00Z");
const TODAY = "2026-11-21";

function oneCase(name: string, range: string, result: InsightsResult, iterations: number): RenderCase {
  const wire = JSON.parse(JSON.stringify({ insights: result })) as unknown;
  const view = () => viewOf(result, range, NOW, { tz: "America/Los_Angeles", shareable: true });
  const built = view();
  const message = digestMessage(built);
  const validateUs = microsPerCall(() => parseInsightsData(wire, true), iterations);
  const computeUs = microsPerCall(view, iterations);
  const templateUs = microsPerCall(() => digestMessage(built), iterations);
  const renderUs = microsPerCall(() => digestMessage(view()), iterations);
  return {
    name,
    validateUs,
    computeUs,
    templateUs,
    renderUs,
    blocks: message.blocks?.length ?? 0,
    jsonBytes: JSON.stringify(message).length,
  };
}

/** The render cost of a digest for a small, a typical and a huge account, and the chart's (benchChart). */
export async function measureRender(o: {
  iterations: number;
  chartIterations: number;
}): Promise<RenderResult> {
  const demo = accountFor(DEMO_API_KEY);
  if (!demo) throw new Error("the demo account is missing");
  const big = buildAccount({ apiKey: "bench-5000-assets", assetCount: 5000 });
  const reply = (account: typeof demo, days: number) =>
    computeInsights(account, { fromDay: addDays(TODAY, 1 - days), toDay: TODAY }, TODAY);
  const cases = [
    oneCase(`last7d, demo account (${demo.assets.length} assets)`, "last7d", reply(demo, 7), o.iterations),
    oneCase(`last90d, demo account`, "last90d", reply(demo, 90), o.iterations),
    oneCase(
      "last30d, 5,000 assets (type-ahead menu)",
      "last30d",
      reply(big, 30),
      Math.max(100, Math.floor(o.iterations / 5)),
    ),
  ];
  const chart = await benchChart({ iterations: o.chartIterations });
  return {
    iterations: o.iterations,
    cases,
    worstRenderMs: Math.max(...cases.map((c) => c.renderUs)) / 1000,
    chart,
  };
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}
