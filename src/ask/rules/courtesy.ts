import type { Pass } from "./found.ts";
import type { Example } from "./rule.ts";

/**
 * Courtesy around a request: thanks, please, greetings, sign-offs. None of it is part of what is
 * asked; said alone ("thank you so much") it gets the examples, as "thanks" does.
 */

const COURTESY_PHRASES = [
  // "thank you so much": its "much" does not ask for numbers.
  "thanks|thank you? so|very much",
];

export const COURTESY_EXAMPLES: readonly Example[] = [
  { q: "thank you so much", reads: { intent: "help" } },
  { q: "violations last week, thank you very much", reads: { intent: "digest", range: "lastweek" } },
];

export const courtesyPass: Pass = {
  name: "courtesy",
  why: "before everything: its words ('so much', 'when you get a chance') hold words other rules read",
  run(s) {
    for (let i = 0; i < s.length; i++)
      for (const p of COURTESY_PHRASES) {
        const len = s.match(i, p);
        if (len > 0) s.claim(i, len);
      }
  },
};
