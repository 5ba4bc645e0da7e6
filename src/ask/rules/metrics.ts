import { metricAt } from "../metrics.ts";
import type { Pass } from "./found.ts";
import { scan } from "./rule.ts";

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
