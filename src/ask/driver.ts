import { alertPass } from "./rules/alerts.ts";
import { comparisonPass, pairPass } from "./rules/comparisons.ts";
import { courtesyPass } from "./rules/courtesy.ts";
import { fillerPass } from "./rules/fillers.ts";
import { type Found, nothingFound, type Pass, type ReadAs } from "./rules/found.ts";
import { helpPass } from "./rules/help.ts";
import { intentPass } from "./rules/intents.ts";
import { metricPass } from "./rules/metrics.ts";
import { longNamePass, namePass } from "./rules/names.ts";
import { periodPass } from "./rules/periods.ts";
import type { RuleContext } from "./rules/rule.ts";
import { schedulePass } from "./rules/schedules.ts";
import { channelPass, recipientPass, sendingPass } from "./rules/sending.ts";
import type { Sentence } from "./sentence.ts";

/**
 * The reader's passes, in the order they run. Each claims the words of its kind of phrase, so a
 * word read by one is not there for the ones after it: the order is what settles a word two kinds
 * could read, and each pass says why it sits where it does. To read a new kind of phrase, add a
 * rule to the file of its kind (src/ask/rules/), or a pass here with its reason.
 */
export const PASSES: readonly Pass[] = [
  courtesyPass,
  helpPass,
  alertPass,
  sendingPass,
  schedulePass,
  channelPass,
  recipientPass,
  pairPass,
  comparisonPass,
  periodPass,
  longNamePass,
  metricPass,
  intentPass,
  namePass,
  fillerPass,
];

/**
 * Runs every pass over the sentence; what they found, and the words left unread in the sentence.
 * `readAs`: the words already read by a guess (slips put right), which the answer says.
 */
export function runPasses(s: Sentence, ctx: RuleContext, readAs: readonly ReadAs[] = []): Found {
  const found = nothingFound();
  found.readAs.push(...readAs);
  for (const pass of PASSES) pass.run(s, found, ctx);
  return found;
}
