import type { Sentence } from "../sentence.ts";
import { conditionAt, vagueChangeAt } from "./conditions.ts";
import type { Found, Pass } from "./found.ts";
import type { Example } from "./rule.ts";

/**
 * "tell me when violations go above 500", "let me know if fixes drop below 10": an alert, its
 * condition read into the subscription grammar's canonical text (conditions.ts reads the condition
 * itself). An alert asked for without an amount ("alert me when violations go up") is refused with
 * what to say.
 */

const ALERT_VERBS = ["alert", "alerts", "notify", "tell", "ping", "warn", "message", "dm", "email", "watch"];

/** The words that open a condition ("when", "if", "as soon as") at `i`, or -1. */
const conditionMarker = (s: Sentence, i: number) =>
  Math.max(s.match(i, "when|if|once|whenever"), s.match(i, "as soon as"));

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
];

/** Reads the condition, claiming its words; a condition that is not one becomes the problem. */
function readAlert(s: Sentence, found: Found): void {
  for (let i = 0; i < s.length; i++) {
    const marker = conditionMarker(s, i);
    if (marker <= 0) continue;
    // A subject may come between ("when payments violations go up"): those words are left for the names.
    let c: ReturnType<typeof conditionAt> = null;
    let skip = 0;
    for (; skip <= 3 && !c; skip++) c = conditionAt(s, i + marker + skip);
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
    for (let k = 0; k < s.length; k++) if (s.match(k, "let me|us know") === 3) s.claim(k, 3);
    if ("problem" in c) {
      // The rest of the sentence is that condition's: refuse it whole, not word by word.
      s.claim(i + marker + skip, s.length);
      found.problems.push({ kind: "bad_condition", message: c.problem });
      return;
    }
    found.condition = c.condition;
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
  run: (s, found) => readAlert(s, found),
};
