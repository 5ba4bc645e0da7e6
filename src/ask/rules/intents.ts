import type { AskIntent } from "../types.ts";
import type { IntentWord, Pass } from "./found.ts";
import type { Example } from "./rule.ts";
import { scan } from "./rule.ts";

/**
 * What is wanted besides the numbers: why they changed (the drivers), their trend, a CSV, an alert.
 * Read after the names and metrics, so "charts" in "helm charts" is a name, and decided (decideIntent)
 * once everything is read.
 */

const THINGS =
  "team|teams|group|groups|asset|assets|scanner|scanners|service|services|repo|repos|project|projects";

const INTENT_PATTERNS: [string, IntentWord][] = [
  ["what has|is? changed", "drivers"],
  // "who's responsible": which assets and scanners, the drivers; "who fixed …" asks about people and stays unread.
  ["who is|are|was|were? responsible|behind|driving|causing", "drivers"],
  ["break|broken down", "drivers"],
  ["come|came from", "drivers"],
  [`which|what ${THINGS}`, "drivers"],
  // "top 5 assets", "the worst teams": who contributes most, what the drivers list.
  [`top|worst|biggest|noisiest #? ${THINGS}|offenders|contributors`, "drivers"],
  [`by|per ${THINGS}`, "drivers"],
  [
    "why|reason|reasons|cause|causes|caused|causing|driver|drivers|driving|drove|explain|explanation|behind|breakdown|contributed|contributing|contributor|contributors|responsible|culprit",
    "drivers",
  ],
  ["over time", "trend"],
  ["day by day", "trend"],
  ["each|per day", "trend"],
  [
    "trend|trends|trending|trendline|chart|charts|graph|graphs|plot|sparkline|timeline|evolution|evolved|visualize|visualization",
    "trend",
  ],
  ["export|exported|csv|download|spreadsheet|excel|xlsx|file|dump", "export"],
  ["as a file", "export"],
  ["alert|alerts|warn", "alert"],
  // Words that only say "let me know": with a schedule and no condition, a digest sent on it.
  ["notify|notification|notifications|ping", "notify"],
];

export const INTENT_EXAMPLES: readonly Example[] = [
  { q: "why did violations go up in payments last week?", reads: { intent: "drivers", range: "lastweek" } },
  { q: "top 5 assets by violations", reads: { intent: "drivers", metrics: ["violations"] } },
  { q: "show the trend of findings over the last 30 days", reads: { intent: "trend", range: "last30d" } },
  { q: "export last month as csv", reads: { intent: "export", range: "lastmonth" } },
];

export const intentPass: Pass = {
  name: "intents",
  why: "after metrics and names of several words, before names of one word ('top assets' is not an asset)",
  run(s, found) {
    scan(s, (i) => {
      for (const [pattern, intent] of INTENT_PATTERNS) {
        const len = s.match(i, pattern);
        if (len > 0) {
          found.intentWords.add(intent);
          return len;
        }
      }
      return 0;
    });
  },
};

/** The intent, from what was found: an alert over a schedule over a file over the drivers over a trend. */
export function decideIntent(o: {
  help: boolean;
  alert: boolean;
  schedule: boolean;
  sending: boolean;
  intentWords: ReadonlySet<IntentWord>;
  signals: boolean;
}): AskIntent {
  if (o.alert || o.intentWords.has("alert")) return "alert";
  // "ping me every morning with findings": a digest on a schedule; "notify me" alone, an alert to complete.
  if (o.intentWords.has("notify") && !o.schedule) return "alert";
  if (o.schedule && (o.sending || !o.intentWords.has("trend"))) return "subscribe";
  if (o.intentWords.has("export")) return "export";
  if (o.intentWords.has("drivers")) return "drivers";
  if (o.intentWords.has("trend")) return "trend";
  if (o.help) return "help";
  return o.signals ? "digest" : "help";
}
