import { metricAt } from "../metrics.ts";
import type { Pass } from "./found.ts";
import type { Example } from "./rule.ts";
import { scan } from "./rule.ts";

/** The numbers a question names (metrics.ts holds their phrases): findings, violations, fixes, the fix rate, merged. */
export const METRIC_EXAMPLES: readonly Example[] = [
  { q: "how many vulnerabilities last week", reads: { metrics: ["findings"] } },
  { q: "violations and fixes this month", reads: { metrics: ["violations", "fixes"] } },
  { q: "what's our fix rate", reads: { metrics: ["fixRate"] } },
  { q: "violations that got merged in october", reads: { metrics: ["merged"] } },
  { q: "how many vulns did we remediate last month", reads: { metrics: ["fixes"], range: "lastmonth" } },
  { q: "how many issues were fixed in october", reads: { metrics: ["fixes"] } },
  // What was fixed, said before the fixes: one number, not the fixes and the findings.
  {
    q: "remediated vulnerabilities in payments this month",
    reads: { metrics: ["fixes"], groups: ["payments"] },
  },
  { q: "resolved violations last week", reads: { metrics: ["fixes"], range: "lastweek" } },
];

export const metricPass: Pass = {
  name: "metrics",
  why: "after names of several words ('merge queue' may be an asset), before intents ('fix rate' is no fix)",
  run(s, found) {
    scan(s, (i) => {
      const m = metricAt(s, i);
      if (m && !found.metrics.includes(m.metric)) found.metrics.push(m.metric);
      return m?.len ?? 0;
    });
  },
};
