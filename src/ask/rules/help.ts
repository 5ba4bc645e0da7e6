import type { Pass } from "./found.ts";
import type { Example } from "./rule.ts";

/**
 * "what can you do", "help", "what questions can I ask": a wish for examples. Said alone it gets
 * them; said with a request ("help me find violations last week") the request is answered.
 */

const HELP_PHRASES = [
  "what can you do|tell",
  "what can|does this|the bot|app do",
  "what can i ask you?",
  "what|which questions|things can|could|may i ask|say|type you?",
  "what|which kind|kinds|sort|sorts of questions|things i? can|could|may i? ask|say|type to? you?",
  "what do you know",
  "how do|can i use this|you|it?",
  "how does this|it work",
  "who|what are you",
  "help|examples|example|commands|usage|capabilities",
  "any? tips|hints|suggestions",
  "on|about|for? what i? to|should|can i? ask|say|type",
  // Where the documentation is: a wish for help, not a question about an asset that happens to be
  // called `docs` (a name is read as one when the words ask for its numbers).
  "where|how can|do|could i find|get|read|see the|your? docs|documentation|manual|guide|instructions",
  "where are|is the|your? docs|documentation|manual|guide|instructions",
  "documentation|manual|readme",
];

export const HELP_EXAMPLES: readonly Example[] = [
  { q: "what can you do?", reads: { intent: "help" } },
  { q: "what kind of questions can I ask you", reads: { intent: "help" } },
  { q: "help", reads: { intent: "help" } },
  { q: "where can I read the documentation?", reads: { intent: "help" } },
  { q: "where are the docs", reads: { intent: "help" } },
];

export const helpPass: Pass = {
  name: "help",
  why: "first of the request's words: 'what can you do' holds words ('do', 'what') that are fillers elsewhere",
  run(s, found) {
    for (let i = 0; i < s.length; i++)
      for (const p of HELP_PHRASES) {
        const len = s.match(i, p);
        if (len > 0) {
          s.claim(i, len);
          found.help = true;
        }
      }
  },
};
