import type { Sentence } from "../sentence.ts";
import { conditionAt, vagueChangeAt } from "./conditions.ts";
import type { Found, OverUnit, Pass } from "./found.ts";
import type { Example, RuleContext } from "./rule.ts";

/**
 * "tell me when violations go above 500", "let me know if fixes drop below 10": an alert, its
 * condition read into the subscription grammar's canonical text (conditions.ts reads the condition
 * itself). An alert asked for without an amount ("alert me when violations go up") is refused with
 * what to say.
 */

const ALERT_VERBS = ["alert", "alerts", "notify", "tell", "ping", "warn", "message", "dm", "email", "watch"];

/** Nouns of an alert: "an alert for …", "a notification when …", "a heads up if …". */
const ALERT_NOUNS = new Set([
  "alert",
  "alerts",
  "notification",
  "notifications",
  "warning",
  "warnings",
  "alarm",
  "up",
]);

/**
 * The words that open a condition at `i` ("when", "if", "as soon as", "the moment"; "for", "on", "of"
 * or "about" right after an alert: "an alert for violations over 500", "notify me of …"; nothing right
 * after one, 0: "an alert: violations > 400"), or -1.
 */
function conditionMarker(s: Sentence, i: number): number {
  const said = Math.max(
    s.match(i, "when|if|once|whenever"),
    s.match(i, "as soon as"),
    s.match(i, "the moment"),
  );
  if (said > 0) return said;
  const before = s.words[i - 1] ?? "";
  const alerted = ALERT_NOUNS.has(before) || (before === "me" && ALERT_VERBS.includes(s.words[i - 2] ?? ""));
  // "set up an alert: violations > 400", "alert me violations over 500": the condition right after it.
  if (alerted && s.match(i, "for|on|of|about") !== 1) return 0;
  if (s.match(i, "for|on|of|about") !== 1) return -1;
  // "an alert for when …": both words open it.
  return alerted ? 1 + Math.max(0, s.match(i + 1, "when|if|whenever")) : -1;
}

export const ALERT_EXAMPLES: readonly Example[] = [
  {
    q: "tell me when violations go above 500",
    reads: { intent: "alert", schedule: "hourly", condition: "when violations > 500" },
  },
  {
    q: "let me know if fixes drop below 10",
    reads: { intent: "alert", condition: "when fixes < 10" },
  },
  { q: "alert me when violations go up", reads: { problem: "bad_condition" } },
  {
    q: "set up an alert for violations over 500",
    reads: { intent: "alert", schedule: "hourly", condition: "when violations > 500" },
  },
  {
    q: "give me a heads up when findings exceed 200",
    reads: { intent: "alert", condition: "when findings > 200" },
  },
  {
    q: "set up an alert: violations > 400",
    reads: { intent: "alert", condition: "when violations > 400" },
  },
  {
    q: "create an alert for when fixes fall below 5 a week",
    reads: { intent: "alert", condition: "when fixes < 5", range: "lastweek" },
  },
  {
    q: "alert me when violations exceed 20/day",
    reads: { intent: "alert", condition: "when violations > 20", range: "last1d" },
  },
  {
    q: "notify me the moment violations are above 20 per day",
    reads: { intent: "alert", condition: "when violations > 20", range: "last1d" },
  },
  {
    q: "warn me if fixes drop below 3 a day",
    reads: { intent: "alert", condition: "when fixes < 3", range: "yesterday" },
  },
];

/** An alert's "X over X" as the rolling span its checks compare (each with the one just before it). */
const OVER_SPANS: Partial<Record<OverUnit, string>> = {
  // A whole day, not today so far: a day still being filled against a whole one "drops" every morning.
  day: "yesterday",
  week: "last7d",
  month: "last30d",
};

export const ALERT_OVER_EXAMPLES: readonly Example[] = [
  {
    q: "alert me when findings go up 15% week over week",
    reads: { intent: "alert", condition: "when findings up 15%", range: "last7d" },
  },
  {
    q: "warn me if violations fall 20% month-on-month",
    reads: { intent: "alert", condition: "when violations down 20%", range: "last30d" },
  },
  {
    q: "notify me if violations rise 50% day over day",
    reads: { intent: "alert", condition: "when violations up 50%", range: "yesterday" },
  },
  // Nothing of a threshold is compared, and a period said besides leaves two spans: refused, not guessed.
  { q: "alert me when violations go above 300 week over week", reads: { problem: "bad_condition" } },
  { q: "alert me if findings go up 10% month over month this quarter", reads: { problem: "bad_condition" } },
  { q: "warn me when violations rise 10% quarter over quarter", reads: { problem: "bad_condition" } },
];

/**
 * "up 10% week over week" in an alert: the change condition already compares each check's span with
 * the one just before it, so "X over X" says which span, the rolling one of that unit (never last
 * week's fixed days, which would compare the same two weeks all week). With anything else to compare
 * (a threshold, a period or a count per day said besides) or a unit no rolling span fits, refused.
 */
export function alertOverSpan(
  unit: OverUnit,
  condition: string | undefined,
  otherSpan: boolean,
): { spec: string } | { problem: string } {
  const spec = OVER_SPANS[unit];
  const change = condition !== undefined && /^when \w+ (up|down|changed) /.test(condition);
  if (spec && change && !otherSpan) return { spec };
  return {
    problem: `An alert compares each check with the period just before it: say the change and its span once, e.g. “when violations go up 10% day over day”, “… week over week” (the last 7 days) or “… month over month” (the last 30 days).`,
  };
}

/** Reads the condition, claiming its words; a condition that is not one becomes the problem. */
function readAlert(s: Sentence, found: Found, ctx: RuleContext): void {
  for (let i = 0; i < s.length; i++) {
    const marker = conditionMarker(s, i);
    if (marker < 0) continue;
    // A subject may come between ("when payments violations go up"): those words are left for the names.
    // Without a marker the condition starts right there.
    let c: ReturnType<typeof conditionAt> = null;
    let skip = 0;
    for (; skip <= (marker === 0 ? 0 : 3) && !c; skip++) c = conditionAt(s, i + marker + skip, ctx);
    if (!c) continue;
    skip--;
    s.claim(i, marker);
    const start = i + marker + skip;
    const hole = "hole" in c ? c.hole : undefined;
    if (hole) {
      s.claim(start, hole.at - start);
      s.claim(hole.at + hole.n, start + c.len - hole.at - hole.n);
    } else s.claim(start, c.len);
    const verb = s.find(ALERT_VERBS);
    if (verb >= 0) s.claim(verb);
    const know = s.match(Math.max(0, verb), "let me|us know");
    if (know > 0) s.claim(verb, know);
    for (let k = 0; k < s.length; k++) {
      // "let me know", "give me a heads up", "give me a shout": alert verbs of several words.
      const len = Math.max(s.match(k, "let me|us know"), s.match(k, "a? heads up"), s.match(k, "a shout"));
      if (len >= 2) s.claim(k, len);
    }
    if ("problem" in c) {
      // The rest of the sentence is that condition's: refuse it whole, not word by word.
      s.claim(i + marker + skip, s.length);
      found.problems.push({ kind: "bad_condition", message: c.problem });
      return;
    }
    found.condition = c.condition;
    if (c.range) found.conditionRange = c.range;
    return;
  }
  // "alert me when violations go up": an alert asked for, but not by how much.
  if (s.find(ALERT_VERBS) < 0) return;
  for (let i = 0; i < s.length; i++) {
    const marker = conditionMarker(s, i);
    if (marker <= 0) continue;
    for (let skip = 0; skip <= 3; skip++) {
      if (vagueChangeAt(s, i + marker + skip) === 0) continue;
      s.claim(i, s.length - i);
      found.problems.push({
        kind: "bad_condition",
        message: "Say by how much, e.g. “when violations go up by 10%” or “when violations go above 500”.",
      });
      return;
    }
  }
}

export const alertPass: Pass = {
  name: "alert",
  why: "before schedules and periods: a condition's numbers ('above 500', 'at least 3') are not times or days",
  run: (s, found, ctx) => readAlert(s, found, ctx),
};
