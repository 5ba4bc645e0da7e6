import { isAppError } from "../../errors.ts";
import { conditionText, parseCondition } from "../../subscriptions/conditions.ts";
import type { Sentence } from "../sentence.ts";
import { numberOf } from "../vocabulary.ts";

/**
 * The condition of an alert as people say it ("violations go above 500", "findings rise by 20%",
 * "anything changes", "violations in payments exceed 200"), read into the subscription grammar's
 * canonical text, checked by the same parser the slash command uses.
 */

const CONDITION_METRICS: Record<string, string> = {
  violations: "violations",
  violation: "violations",
  findings: "findings",
  finding: "findings",
  vulnerabilities: "findings",
  fixes: "fixes",
  fixed: "fixes",
};

/** A number, a percentage (`10%`, `10 %`, `10 percent`), at `i`. */
function amountAt(s: Sentence, i: number): { len: number; text: string } | null {
  const w = s.free(i);
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(w ?? "");
  if (pct) return { len: 1, text: `${pct[1]}%` };
  const n = numberOf(w);
  if (n === undefined || w === "a" || w === "an") return null;
  if (s.match(i + 1, "%|percent") === 1) return { len: 2, text: `${n}%` };
  return { len: 1, text: String(n) };
}

const ABOVE = [
  "go|goes|are|is|get|gets|rise|rises|climb|climbs|be above|over|past|beyond",
  "above|over|past|beyond",
  "exceed|exceeds|passes|pass|tops|top",
  "are|is|get|gets? become|becomes|becoming? more|greater|higher than",
  ">|>=",
];
const BELOW = [
  "drop|drops|fall|falls|go|goes|are|is|get|gets|be|dip|dips below|under|beneath",
  "below|under|beneath",
  "are|is|get|gets? become|becomes|becoming? less|fewer|lower than",
  "<|<=",
];
const UP = [
  "go|goes|are|is|be up by?",
  "rise|rises|increase|increases|jump|jumps|grow|grows|spike|spikes|climb|climbs by?",
];
const DOWN = [
  "go|goes|are|is|be down by?",
  "drop|drops|fall|falls|decrease|decreases|shrink|shrinks|dip|dips by?",
];
/**
 * "rise by at least 10%": the change conditions fire at their amount itself, so "at least" is what they
 * say; "more than 10%" is not, and is refused with the words that are.
 */
const AT_LEAST = "at least";
const MORE_THAN = ["more than", "over"];
const ANY = ["change|changes|move|moves by?"];
/** "violations double": up by 100 %. */
const DOUBLE = "double|doubles";
const IN_A_ROW = "weeks|days|periods|times|runs|hours in a row";

/** Words that start a subject said inside a condition ("violations in payments go above 200"). */
const SUBJECT_LEAD = new Set(["in", "for", "on", "across", "from", "of", "at"]);

/** "unusual", "unusually high": the alert grammar's unusual-day conditions. */
const UNUSUAL =
  "are|is|get|gets|go|goes|look|looks|seem|seems|become|becomes? unusual|abnormal|anomalous|atypical";
const UNUSUALLY = "are|is|get|gets|go|goes|look|looks|seem|seems? unusually|abnormally high|low";

export type ConditionHit =
  | {
      len: number;
      condition: string;
      /** Words inside the span that are not the condition's (a subject), left for the names. */
      hole?: { at: number; n: number };
    }
  | { len: number; problem: string };

/**
 * The condition said from `i` ("violations go above 500", "findings rise by 20%", "anything
 * changes", "violations in payments exceed 200"), as the subscription grammar's canonical text, or
 * why it is not one.
 */
export function conditionAt(s: Sentence, i: number): ConditionHit | null {
  const anything = s.match(i, "anything|something|it|the? numbers? change|changes|moves|move");
  if (anything >= 2) return { len: anything, condition: "when changed" };
  const lead = s.match(i, "the|our|total?");
  const metricWord = s.free(i + lead);
  const metric = CONDITION_METRICS[metricWord ?? ""];
  if (!metric) {
    if (s.match(i + lead, "fix|merged rate|violations") === 2)
      return {
        len: lead + 1,
        problem: "Alerts can watch findings, violations or fixes; not the fix rate or merged violations.",
      };
    return null;
  }
  const at = i + lead + 1;
  const direct = conditionAfter(s, at, metric);
  if (direct)
    return direct.problem ? { len: at - i + direct.len, problem: direct.problem } : hitOf(i, at, direct);
  // A subject between the number and what it does: up to three words after "in", "for", ….
  if (!SUBJECT_LEAD.has(s.free(at) ?? "")) return null;
  for (let n = 2; n <= 4; n++) {
    if (s.free(at + n - 1) === undefined) return null;
    const later = conditionAfter(s, at + n, metric);
    if (later?.problem) return { len: at + n - i + later.len, problem: later.problem };
    if (later) return { ...hitOf(i, at + n, later), hole: { at, n } };
  }
  return null;
}

interface After {
  len: number;
  text?: string;
  problem?: string;
}

/** The condition from `i` whose words after the metric start at `at`. */
function hitOf(i: number, at: number, found: After): ConditionHit {
  return canonical(at - i + found.len, found.text as string);
}

/** What is said of a metric from `at`: a threshold, a change, a streak, an unusual day. */
function conditionAfter(s: Sentence, at: number, metric: string): After | null {
  const tryAll = (patterns: string[], verb: string): After | null => {
    for (const p of patterns) {
      let len = s.match(at, p);
      if (len <= 0) continue;
      if (verb !== ">" && verb !== "<") {
        len += Math.max(0, s.match(at + len, AT_LEAST));
        const more = Math.max(...MORE_THAN.map((q) => s.match(at + len, q)));
        const over = more > 0 ? amountAt(s, at + len + more) : null;
        if (over)
          return {
            len: len + more + over.len,
            problem: `An alert on a change fires at its amount or more: say “by at least ${over.text}”.`,
          };
      }
      const amount = amountAt(s, at + len);
      if (!amount) {
        // "violations > lots": a threshold that is not a number is refused as one, not skipped.
        const next = s.typed[at + len];
        if ((verb === ">" || verb === "<") && next !== undefined && /^[a-z]+$/.test(next))
          return { len: len + 1, problem: `“${next}” is not a number: say the threshold, e.g. above 500.` };
        continue;
      }
      const row = verb === "up" ? s.match(at + len + amount.len, IN_A_ROW) : -1;
      if (row > 0 && !amount.text.endsWith("%"))
        return { len: len + amount.len + row, text: `${metric} rose ${amount.text}` };
      if (verb === ">" || verb === "<") {
        if (amount.text.endsWith("%")) return null;
        return { len: len + amount.len, text: `${metric} ${verb} ${amount.text}` };
      }
      return { len: len + amount.len, text: `${metric} ${verb} ${amount.text}` };
    }
    return null;
  };
  // "higher than usual", "lower than normal": the unusual-day conditions in other words (before the
  // thresholds, whose "are higher than" would take "usual" for a number that is not one).
  const usual = s.match(at, "are|is|get|gets|go|goes|look|looks|seem|seems? higher|lower than usual|normal");
  if (usual > 0)
    return {
      len: usual,
      text: `${metric} unusually ${s.words[at + usual - 3] === "higher" ? "high" : "low"}`,
    };
  const found =
    tryAll(ABOVE, ">") ??
    tryAll(BELOW, "<") ??
    tryAll(UP, "up") ??
    tryAll(DOWN, "down") ??
    tryAll(ANY, "changed");
  if (found) return found;
  const double = s.match(at, DOUBLE);
  if (double > 0) return { len: double, text: `${metric} up 100%` };
  const unusually = s.match(at, UNUSUALLY);
  if (unusually > 0) return { len: unusually, text: `${metric} unusually ${s.words[at + unusually - 1]}` };
  const unusual = s.match(at, UNUSUAL);
  if (unusual > 0) return { len: unusual, text: `${metric} unusual` };
  // "violations rise 3 weeks in a row" without "by".
  const rising = s.match(at, "rise|rises|rising|increase|increases|keep|keeps rising?");
  const n = rising > 0 ? numberOf(s.free(at + rising)) : undefined;
  const row = n !== undefined ? s.match(at + rising + 1, IN_A_ROW) : -1;
  if (n !== undefined && row > 0) return { len: rising + 1 + row, text: `${metric} rose ${n}` };
  return null;
}

/**
 * "violations go up", "findings jump", "fixes drop": a change said without how much, at `i`
 * (after an optional "the"/"our"); the length of the words, or 0.
 */
export function vagueChangeAt(s: Sentence, i: number): number {
  const lead = s.match(i, "the|our|total?");
  if (!CONDITION_METRICS[s.free(i + lead) ?? ""]) return 0;
  for (const p of [...UP, ...DOWN, ...ANY]) {
    const len = s.match(i + lead + 1, p);
    if (len > 0) return lead + 1 + len;
  }
  return 0;
}

function canonical(len: number, text: string): ConditionHit {
  try {
    return { len, condition: conditionText(parseCondition(text)) };
  } catch (err) {
    const message = isAppError(err)
      ? (err.message.split("\n")[0] ?? err.message)
      : "That is not a condition.";
    return { len, problem: message };
  }
}
