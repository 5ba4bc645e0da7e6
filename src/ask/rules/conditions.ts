import { isAppError } from "../../errors.ts";
import { conditionText, parseCondition } from "../../subscriptions/conditions.ts";
import { metricAt } from "../metrics.ts";
import type { Sentence } from "../sentence.ts";
import { numberOf } from "../vocabulary.ts";
import { firstAt, type Rule, type RuleContext } from "./rule.ts";

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

/** The verbs of a condition, in every form people write them ("goes", "going", "passing", "crossed"). */
const GO = "go|goes|going|are|is|get|gets|getting|be";
/** "are going", "is getting", "keep rising": a verb in -ing after its auxiliary. */
const ING = "are|is|be|keep|keeps|start|starts";
const ABOVE = [
  `${ING} going|getting|rising|climbing|spiking|jumping|creeping above|over|past|beyond`,
  `${GO}|rise|rises|rising|climb|climbs|climbing|spike|spikes|spiking|jump|jumps|jumping|shoot|shoots|creep|creeps above|over|past|beyond`,
  "above|over|past|beyond",
  "exceed|exceeds|exceeding|exceeded|pass|passes|passing|passed|top|tops|topping|cross|crosses|crossing|crossed|surpass|surpasses|surpassing|breach|breaches|breaching",
  "are|is|get|gets? become|becomes|becoming? more|greater|higher than",
  ">|>=",
];
const BELOW = [
  `${ING} going|getting|dropping|falling|dipping|sinking|slipping below|under|beneath`,
  `${GO}|drop|drops|dropping|fall|falls|falling|dip|dips|dipping|sink|sinks|sinking|slip|slips|slipping below|under|beneath`,
  "below|under|beneath",
  "are|is|get|gets? become|becomes|becoming? less|fewer|lower than",
  "<|<=",
];
const UP = [
  `${ING} going up by?`,
  `${ING} rising|increasing|jumping|growing|spiking|climbing by?`,
  "go|goes|going|are|is|be up by?",
  "rise|rises|rising|increase|increases|increasing|jump|jumps|jumping|grow|grows|growing|spike|spikes|spiking|climb|climbs|climbing by?",
];
const DOWN = [
  `${ING} going down by?`,
  `${ING} dropping|falling|decreasing|shrinking|dipping by?`,
  "go|goes|going|are|is|be down by?",
  "drop|drops|dropping|fall|falls|falling|decrease|decreases|decreasing|shrink|shrinks|shrinking|dip|dips|dipping by?",
];
/**
 * "rise by at least 10%": the change conditions fire at their amount itself, so "at least" is what they
 * say; "more than 10%" is not, and is refused with the words that are.
 */
const AT_LEAST = "at least";
const MORE_THAN = ["more than", "over"];
const ANY = ["change|changes|move|moves by?"];
/** "violations double": up by 100 %. */
const DOUBLE = "double|doubles|doubling";
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
      /**
       * The range a count said per day or per week is counted over: above a number, today (this week)
       * so far, so the alert fires on the day the count passes it; below one, yesterday (last week),
       * since a day still being filled starts below any floor.
       */
      range?: string;
    }
  | { len: number; problem: string };

type ConditionRule = Rule<ConditionHit>;

/** "anything changes", "the numbers move": any of the numbers moved at all. */
const anythingChanges: ConditionRule = {
  name: "anything changes",
  examples: [{ q: "tell me if anything changes", reads: { intent: "alert", condition: "when changed" } }],
  at(s, i) {
    const anything = s.match(i, "anything|something|it|the? numbers? change|changes|moves|move");
    return anything >= 2 ? { len: anything, condition: "when changed" } : null;
  },
};

/**
 * The alert engine's conditions (src/subscriptions/conditions.ts) watch counts and the fix rate;
 * merged violations have no condition it can check, so such an alert is refused with what works.
 */
export const NOT_WATCHED =
  "Alerts can watch findings, violations, fixes or the fix rate (e.g. “when fixes drop below 10”, “when the fix rate drops below 60%”), not merged violations. Merged violations are in every digest: ask for them (“merged violations this month”) or subscribe to one.";

/**
 * What an alert on the fix rate can say: a threshold in percent over the alert's period. "Per day"
 * names the day a count is counted over (today so far, or yesterday); a rate is no count, and today
 * so far would be the rate of a few hours, so the words are refused rather than guessed.
 */
export const RATE_THRESHOLD_ONLY =
  "An alert on the fix rate watches a threshold in percent over its period (the last 7 days unless you say another): say “when the fix rate drops below 60%” or “goes above 80%”. A change of the rate, or a rate per day, is not something alerts check.";

/** "merged violations go up": a number an alert cannot watch, said so. */
const unwatched: ConditionRule = {
  name: "merged violations",
  examples: [
    { q: "alert me if merged violations pass 20", reads: { problem: "bad_condition" } },
    { q: "warn me when the merged violations go up", reads: { problem: "bad_condition" } },
  ],
  at(s, i) {
    const lead = Math.max(0, s.match(i, "the|our|total"));
    const m = metricAt(s, i + lead);
    // "merged" alone is a verb ("when we merged"); "merged violations" the number.
    if (m?.metric !== "merged" || m.len < 2) return null;
    // The words after it are that condition's: refuse them whole, not word by word.
    return { len: s.length - i, problem: NOT_WATCHED };
  },
};

/**
 * "the fix rate drops below 60%", "our fix-rate goes above 80 percent": the rate against a threshold
 * in percent. Anything else said of it (it goes up, per day) is refused whole with what works.
 */
const fixRate: ConditionRule = {
  name: "the fix rate against a percentage",
  examples: [
    {
      q: "ping me once the fix rate sinks below 45%",
      reads: { intent: "alert", condition: "when fixrate < 45%" },
    },
    {
      q: "let me know if our fix-rate climbs over 85 percent",
      reads: { intent: "alert", condition: "when fixrate > 85%" },
    },
    { q: "alert me when remediation rate is lower than 30%", reads: { condition: "when fixrate < 30%" } },
    { q: "tell me when the fix rate falls under 0.5", reads: { problem: "bad_condition" } },
    { q: "warn me when the fix rate goes over 120%", reads: { problem: "bad_condition" } },
    { q: "notify me if fix rate drops 10% week over week", reads: { problem: "bad_condition" } },
    { q: "alert me if the fix rate per day falls below 50%", reads: { problem: "bad_condition" } },
  ],
  at(s, i) {
    const lead = Math.max(0, s.match(i, "the|our|a|total"));
    const m = metricAt(s, i + lead);
    if (m?.metric !== "fixRate") return null;
    const at = i + lead + m.len;
    const refused = { len: s.length - i, problem: RATE_THRESHOLD_ONLY };
    if (perAt(s, at)) return refused;
    for (const [patterns, op] of [
      [ABOVE, ">"],
      [BELOW, "<"],
    ] as const) {
      for (const p of patterns) {
        const len = s.match(at, p);
        const amount = len > 0 ? amountAt(s, at + len) : null;
        if (!amount) continue;
        const end = at + len + amount.len;
        // "below 60% a day": a day's rate, refused as above.
        if (perAt(s, end)) return refused;
        return canonical(end - i, `fixrate ${op} ${amount.text}`);
      }
    }
    return refused;
  },
};

/** "violations go above 500", "findings rise by 20%", "violations in payments exceed 200". */
const metricFirst: ConditionRule = {
  name: "a number, then what it does",
  examples: [
    { q: "warn me when violations pass 500", reads: { condition: "when violations > 500" } },
    { q: "tell me when findings are going past 1,000", reads: { condition: "when findings > 1000" } },
    {
      q: "let me know if violations in payments cross 300",
      reads: { condition: "when violations > 300", groups: ["payments"] },
    },
    { q: "warn me when the violation count passes 1000", reads: { condition: "when violations > 1000" } },
    { q: "alert me when fixes are dropping below 10", reads: { condition: "when fixes < 10" } },
    {
      q: "warn me if new findings per day go above 50",
      reads: { condition: "when findings > 50", range: "last1d" },
    },
    {
      q: "let me know when fixes are below 10 for the day",
      reads: { condition: "when fixes < 10", range: "yesterday" },
    },
  ],
  at(s, i) {
    const lead = Math.max(0, s.match(i, "the|our? total|new?"));
    const metric = CONDITION_METRICS[s.free(i + lead) ?? ""];
    if (!metric) return null;
    // "the violation count passes 1000": the number said with a word for it.
    const at =
      i +
      lead +
      1 +
      Math.max(0, s.match(i + lead + 1, "count|counts|number|numbers|total|totals|tally|level|levels"));
    // "new findings per day go above 50": the unit said before what the number does.
    const per = perAt(s, at);
    const after = per ? conditionAfter(s, at + per.len, metric) : null;
    if (per && after?.text) return counted(hitOf(i, at + per.len, after), per, 0);
    const direct = conditionAfter(s, at, metric);
    if (direct)
      return direct.problem
        ? { len: at - i + direct.len, problem: direct.problem }
        : withPer(s, i, hitOf(i, at, direct));
    // A subject between the number and what it does: up to three words after "in", "for", ….
    if (!SUBJECT_LEAD.has(s.free(at) ?? "")) return null;
    for (let n = 2; n <= 4; n++) {
      if (s.free(at + n - 1) === undefined) return null;
      const later = conditionAfter(s, at + n, metric);
      if (later?.problem) return { len: at + n - i + later.len, problem: later.problem };
      if (later) return withPer(s, i, { ...hitOf(i, at + n, later), hole: { at, n } });
    }
    return null;
  },
};

/** "more than 20", "over 500", "fewer than 10", "under 10": a threshold said before the number it is of. */
const THRESHOLD_FIRST: readonly [string, ">" | "<"][] = [
  ["more|greater than", ">"],
  ["over|above|beyond|>|>=", ">"],
  ["fewer|less than", "<"],
  ["under|below|<|<=", "<"],
];

/** What follows a number counted in a condition ("violations come in", "findings are found"). */
const ARRIVE = "come|comes|show|shows|pop|pops|turn|turns in|up";
const FOUND = "are|get|gets|were found|detected|reported|opened|raised|flagged";

/**
 * "more than 20 violations in a day", "over 500 findings", "fewer than 10 fixes a week": the threshold
 * said first, the number after it.
 */
const thresholdFirst: ConditionRule = {
  name: "a threshold, then the number",
  examples: [
    {
      q: "tell me if there are more than 20 violations in a day",
      reads: { condition: "when violations > 20", range: "last1d", schedule: "hourly" },
    },
    { q: "alert me if we get over 500 new findings", reads: { condition: "when findings > 500" } },
    {
      q: "let me know when fewer than 5 fixes come in per week",
      reads: { condition: "when fixes < 5", range: "lastweek" },
    },
  ],
  at(s, i) {
    for (const [words, op] of THRESHOLD_FIRST) {
      const len = s.match(i, words);
      if (len <= 0) continue;
      const amount = amountAt(s, i + len);
      if (!amount || amount.text.endsWith("%")) return null;
      let at = i + len + amount.len;
      at += Math.max(0, s.match(at, "new"));
      const metric = CONDITION_METRICS[s.free(at) ?? ""];
      if (!metric) return null;
      at++;
      at += Math.max(0, s.match(at, ARRIVE), s.match(at, FOUND));
      return withPer(s, i, canonical(at - i, `${metric} ${op} ${amount.text}`));
    }
    return null;
  },
};

/** The condition rules, tried in this order where a condition may start. */
export const CONDITION_RULES: readonly ConditionRule[] = [
  anythingChanges,
  fixRate,
  unwatched,
  metricFirst,
  thresholdFirst,
];

/**
 * The condition said from `i` ("violations go above 500", "findings rise by 20%", "anything
 * changes", "more than 20 violations a day"), as the subscription grammar's canonical text, or why it
 * is not one.
 */
export function conditionAt(s: Sentence, i: number, ctx: RuleContext): ConditionHit | null {
  return firstAt(CONDITION_RULES, s, i, ctx);
}

/**
 * "a day", "per day", "/day", "in a day", "in one day", "in 24 hours", "each week": the unit a count is
 * said per ("daily" after it is how often the alert is checked: "violations > 5 daily at 10").
 */
function perAt(s: Sentence, at: number): { len: number; unit: "day" | "week" } | null {
  const len = Math.max(
    s.match(at, "a|per|/|each day|week"),
    s.match(at, "in|within a|one|1|single|24? day|week|hours"),
    s.match(at, "in|within a single day|week"),
    s.match(at, "for|on|in|during the day|week"),
  );
  if (len <= 0) return null;
  const unit = s.words[at + len - 1];
  if (unit === "hours" && s.words[at + len - 2] !== "24") return null;
  return { len, unit: unit === "week" || unit === "weekly" ? "week" : "day" };
}

/** A threshold from `i`, with the unit it is counted per when one follows it ("20/day"). */
function withPer(s: Sentence, i: number, hit: ConditionHit): ConditionHit {
  if ("problem" in hit) return hit;
  const per = perAt(s, i + hit.len);
  return per ? counted(hit, per, per.len) : hit;
}

/** A threshold counted per day or week: the range its count is over (see ConditionHit's `range`). */
function counted(hit: ConditionHit, per: { unit: "day" | "week" }, extra: number): ConditionHit {
  if ("problem" in hit) return hit;
  const op = / ([<>]) /.exec(hit.condition)?.[1];
  if (!op) return hit;
  const above = op === ">";
  const range = per.unit === "day" ? (above ? "last1d" : "yesterday") : above ? "last7d" : "lastweek";
  return { ...hit, len: hit.len + extra, range };
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
