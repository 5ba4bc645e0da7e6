import { comparisonAt, pairAt } from "../comparisons.ts";
import type { Pass } from "./found.ts";
import { scan } from "./rule.ts";

export const pairPass: Pass = {
  name: "period pairs",
  why: "before comparisons and periods: 'compare October to September' says both periods at once",
  run(s, found, ctx) {
    scan(s, (i) => {
      const pair = pairAt(s, i, ctx.today);
      if (!pair || found.said) return 0;
      found.periods.push({ len: pair.len, range: pair.main });
      found.said = pair.said;
      return pair.len;
    });
  },
};

export const comparisonPass: Pass = {
  name: "comparisons",
  why: "before periods: 'vs last month' is not the period asked about",
  run(s, found, ctx) {
    scan(s, (i) => {
      const c = comparisonAt(s, i, ctx.today);
      if (!c || found.said) return 0;
      found.said = c.said;
      found.implied = c.impliedMain;
      return c.len;
    });
  },
};
