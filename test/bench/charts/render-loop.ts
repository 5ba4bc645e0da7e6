import { accountFor, DEMO_API_KEY } from "../../../sandbox/analytics/index.ts";
import { digestMessage } from "../../../templates/digest-message.ts";
import { quantile } from "../stats.ts";
import { nativeView } from "./section.ts";

/**
 * The charts section's render of one case, alone and longer, for profiling the template
 * (`node --import tsx test/bench/charts/render-loop.ts [days]`, add `--cpu-prof` to profile): 600
 * warm-up renders of the demo account's scheduled digest with the chart block and drivers table, then
 * 4,000 timed ones. Prints p50, p95 and p99 in µs.
 */
const demo = accountFor(DEMO_API_KEY);
if (!demo) throw new Error("the demo account is missing");
const days = Number(process.argv[2] ?? 1);
const view = nativeView(demo, days);
for (let i = 0; i < 600; i++) digestMessage(view);
const samples: number[] = [];
for (let i = 0; i < 4_000; i++) {
  const t = performance.now();
  digestMessage(view);
  samples.push((performance.now() - t) * 1000);
}
const at = (q: number) => Math.round(quantile(samples, q));
process.stdout.write(`${days} days: p50 ${at(0.5)} µs, p95 ${at(0.95)} µs, p99 ${at(0.99)} µs\n`);
