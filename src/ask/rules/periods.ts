import { periodAt } from "../periods.ts";
import type { Pass } from "./found.ts";
import { scan } from "./rule.ts";

export const periodPass: Pass = {
  name: "periods",
  why: "before names and metrics: 'the last 2 weeks' and 'Q3' hold numbers and words names may hold",
  run(s, found, ctx) {
    scan(s, (i) => {
      if (found.periods.length > 0) return 0;
      const p = periodAt(s, i, ctx.today);
      if (p) found.periods.push(p);
      return p?.len ?? 0;
    });
  },
};
