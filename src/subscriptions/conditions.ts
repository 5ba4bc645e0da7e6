import { AppError } from "../errors.ts";
import { formatRate } from "../insights/format.ts";
import type { Measure } from "../insights/period-totals.ts";
import type { Digest } from "../insights/types.ts";
import {
  DEFAULT_UNUSUAL_RULE,
  dayWords,
  judgeDay,
  SENSITIVITY_LEVELS,
  type UnusualJudgement,
  type WeekdaySeries,
  weekdayName,
} from "../insights/unusual.ts";

/**
 * Conditions on a subscription: post only when the numbers say something. Pure: the grammar that
 * turns `when violations up 10%` into a condition, the canonical text shown in lists, and the
 * verdict for one digest. A run whose condition is not met is recorded as skipped with the reason,
 * never dropped silently; missing data is never read as "no change".
 */

export const METRICS = ["findings", "violations", "fixes"] as const;
export type Metric = (typeof METRICS)[number];

/**
 * Rates a condition can watch, in percent. Only the fix rate: the digest's own (Digest.fixRate), so
 * an alert and the digest beside it never disagree on what the rate was.
 */
export const RATES = ["fixrate"] as const;
export type Rate = (typeof RATES)[number];

export type Condition =
  /** Changed against the previous period by at least `by` (percent or count), in a direction. */
  | { kind: "change"; metric: Metric; by: number; unit: "pct" | "count"; direction: "up" | "down" | "any" }
  /** The current value is above (or below) an absolute threshold. */
  | { kind: "threshold"; metric: Metric; op: ">" | "<"; value: number }
  /**
   * A rate over the current period (the subscription's range, as for thresholds) is above (or below)
   * `pct` percent (0–100). Only a threshold: a rate's change would need the previous period's fixes,
   * which the service does not report; the unusual-day band and the streaks of `rising` are kept for
   * counts, and a day's rate over a handful of violations has no steady band to be unusual against.
   */
  | { kind: "rate"; metric: Rate; op: ">" | "<"; pct: number }
  /** Rose in each of the last `periods` periods (needs the values of earlier runs). */
  | { kind: "rising"; metric: Metric; periods: number }
  /** Any of the numbers moved at all. */
  | { kind: "changed" }
  /**
   * The latest complete day is outside the band of the same weekday in the weeks before it
   * (src/insights/unusual.ts), in a direction; `sensitivity` is the band's half-width in robust
   * standard deviations (absent = the default).
   */
  | { kind: "unusual"; metric: Metric; direction: "high" | "low" | "any"; sensitivity?: number };

export interface Verdict {
  met: boolean;
  /** Why, in words, with the value and the threshold: "violations +12% (≥ 10%)". */
  reason: string;
  /**
   * The data cannot decide (a gap, a day left out, a fix rate of a period with no violations and no
   * fixes): an alert holds its state; a digest posts to show a gap, and skips a period with no rate.
   */
  unknown?: boolean;
  /** The day judged against its weekday, for `unusual` conditions. */
  unusual?: UnusualJudgement;
}

export const CONDITION_GRAMMAR = [
  "when violations changed 10%   (up or down by at least 10% against the previous period)",
  "when violations up 10%        (or: down 25, findings up 50 — a % or a count)",
  "when violations > 500         (or: findings < 100 — the current value against a threshold)",
  "when fixrate < 60%            (or: fixrate > 80% — the period's fix rate, in percent, as the digest shows it)",
  "when violations rose 3        (rose in each of the last 3 periods)",
  "when changed                  (anything moved at all)",
  "when violations unusual       (or: unusually high, unusually low — yesterday against the same weekday of the 8 weeks before; add sensitivity low, high or 2–10)",
].join("\n");

const bad = (message: string) =>
  new AppError("bad_condition", `${message}\nConditions look like:\n${CONDITION_GRAMMAR}`);

const MAX_VALUE = 1e12;

function number(raw: string | undefined, what: string): number {
  const n = Number((raw ?? "").replace(/,/g, ""));
  if (raw === undefined || raw === "" || !Number.isFinite(n) || n < 0 || n > MAX_VALUE)
    throw bad(
      `"${(raw ?? "").slice(0, 20)}" is not a ${what} I can use (a number from 0 to 1,000,000,000,000).`,
    );
  return n;
}

function metric(raw: string | undefined): Metric {
  const m = (raw ?? "").toLowerCase().replace(/^fixed$/, "fixes");
  if (!(METRICS as readonly string[]).includes(m))
    throw bad(
      `"${(raw ?? "").slice(0, 20)}" is not a number I track: use findings, violations, fixes or fixrate (in %).`,
    );
  return m as Metric;
}

const SENSITIVITY_WORDS = Object.keys(SENSITIVITY_LEVELS) as (keyof typeof SENSITIVITY_LEVELS)[];

/** `sensitivity low|normal|high|<2..10>` after an unusual condition; the default is left out. */
function sensitivity(words: string[]): number | undefined {
  if (words.length === 0) return undefined;
  const [word, value, ...rest] = words;
  if (word !== "sensitivity" || value === undefined || rest.length > 0)
    throw bad(
      `I don't understand "${words.join(" ").slice(0, 30)}" after unusual; add sensitivity low, normal, high or a number from 2 to 10.`,
    );
  const named = SENSITIVITY_LEVELS[value as keyof typeof SENSITIVITY_LEVELS];
  const k = named ?? Number(value);
  if (!Number.isFinite(k) || k < 2 || k > 10)
    throw bad(
      `"${value.slice(0, 20)}" is not a sensitivity: use low, normal, high or a number from 2 (most alerts) to 10 (fewest).`,
    );
  return k === DEFAULT_UNUSUAL_RULE.sensitivity ? undefined : k;
}

/** `unusual`, `unusually high`, `unusually low`, each with an optional sensitivity. */
function unusual(which: Metric, words: string[]): Condition {
  const [verb, next, ...rest] = words;
  if (verb === "unusual") {
    const k = sensitivity(next === undefined ? [] : [next, ...rest]);
    return {
      kind: "unusual",
      metric: which,
      direction: "any",
      ...(k === undefined ? {} : { sensitivity: k }),
    };
  }
  if (next !== "high" && next !== "low")
    throw bad(`"unusually" needs a direction: when ${which} unusually high, or when ${which} unusually low.`);
  const k = sensitivity(rest);
  return { kind: "unusual", metric: which, direction: next, ...(k === undefined ? {} : { sensitivity: k }) };
}

const RATE_EXAMPLE = "when fixrate < 60% or when fixrate > 80%";

/**
 * `fixrate < 60%`, `fixrate above 80%`. The `%` is required: "0.6" and "60" would both be meant by
 * someone, and a threshold read a hundred times off never fires (or always does).
 */
function rate(which: Rate, verb: string | undefined, amount: string | undefined, rest: string[]): Condition {
  if (verb !== ">" && verb !== "<" && verb !== "above" && verb !== "below")
    throw bad(
      `The fix rate can only be watched against a threshold in percent (${RATE_EXAMPLE}): a change, a streak or an unusual day of a rate is not something alerts check.`,
    );
  if (rest.length > 0) throw bad(`I don't understand "${rest.join(" ").slice(0, 30)}".`);
  if (!amount?.endsWith("%"))
    throw bad(`A fix rate is a percentage, said with its %: when ${which} ${verb} ${amount ?? "60"}%.`);
  const pct = Number(amount.slice(0, -1));
  if (amount === "%" || !Number.isFinite(pct) || pct < 0 || pct > 100)
    throw bad(`"${amount.slice(0, 20)}" is not a fix rate: a rate is from 0% to 100%.`);
  const op = verb === ">" || verb === "above" ? ">" : "<";
  if ((op === "<" && pct === 0) || (op === ">" && pct === 100))
    throw bad(`A fix rate is never ${op === "<" ? "below 0%" : "above 100%"}: that alert could never fire.`);
  return { kind: "rate", metric: which, op, pct };
}

/**
 * Parses the words after `when` (the `when` itself is optional).
 *
 * @example parseCondition("when violations up 10%") // { kind: "change", metric: "violations", by: 10, unit: "pct", direction: "up" }
 */
export function parseCondition(text: string): Condition {
  const words = text
    .trim()
    .toLowerCase()
    .replace(/^when\s+/, "")
    // "fix rate" and "fix-rate" are how the digest and people name it; one word in the grammar.
    .replace(/\bfix(?:\s+|-)rate\b/, "fixrate")
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) throw bad("The condition is empty.");
  if (words.length === 1 && (words[0] === "changed" || words[0] === "anything")) return { kind: "changed" };
  if (words.join(" ") === "anything changed") return { kind: "changed" };
  const [m, verb, amount, ...rest] = words;
  if ((RATES as readonly string[]).includes(m ?? "")) return rate(m as Rate, verb, amount, rest);
  if (verb === "unusual" || verb === "unusually") return unusual(metric(m), words.slice(1));
  if (rest.length > 0) throw bad(`I don't understand "${rest.join(" ").slice(0, 30)}".`);
  const which = metric(m);
  if (verb === ">" || verb === "<" || verb === "above" || verb === "below") {
    return {
      kind: "threshold",
      metric: which,
      op: verb === ">" || verb === "above" ? ">" : "<",
      value: number(amount, "threshold"),
    };
  }
  if (verb === "rose" || verb === "rising") {
    const periods = number(amount, "number of periods");
    if (!Number.isInteger(periods) || periods < 2 || periods > 12)
      throw bad("A rising condition counts 2 to 12 periods in a row, e.g. when violations rose 3.");
    return { kind: "rising", metric: which, periods };
  }
  if (verb === "changed" || verb === "up" || verb === "down") {
    if (which === "fixes")
      throw bad(
        "The service reports no previous period for fixes: use a threshold (when fixes < 10) or when fixes rose 3.",
      );
    const pct = (amount ?? "").endsWith("%");
    const by = number(pct ? amount?.slice(0, -1) : amount, pct ? "percentage" : "count");
    if (by === 0) throw bad("A change of 0 is always met; use `when changed` for any movement.");
    return {
      kind: "change",
      metric: which,
      by,
      unit: pct ? "pct" : "count",
      direction: verb === "changed" ? "any" : verb,
    };
  }
  throw bad(
    `"${(verb ?? "").slice(0, 20)}" is not a condition word: use changed, up, down, >, <, rose or unusual.`,
  );
}

const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** The canonical text of a condition, re-parseable by parseCondition. */
export function conditionText(c: Condition): string {
  switch (c.kind) {
    case "changed":
      return "when changed";
    case "threshold":
      return `when ${c.metric} ${c.op} ${c.value}`;
    case "rate":
      return `when ${c.metric} ${c.op} ${c.pct}%`;
    case "rising":
      return `when ${c.metric} rose ${c.periods}`;
    case "change":
      return `when ${c.metric} ${c.direction === "any" ? "changed" : c.direction} ${c.by}${c.unit === "pct" ? "%" : ""}`;
    case "unusual": {
      const named = SENSITIVITY_WORDS.find((w) => SENSITIVITY_LEVELS[w] === c.sensitivity);
      const k = c.sensitivity === undefined ? "" : ` sensitivity ${named ?? c.sensitivity}`;
      return `when ${c.metric} ${c.direction === "any" ? "unusual" : `unusually ${c.direction}`}${k}`;
    }
  }
}

/** The current and previous value of a metric in a digest (fixes have no previous in the reply). */
export function valuesOf(
  d: Digest,
  m: Metric,
): { current: number; previous: number | null; pct: number | null } {
  if (m === "fixes") return { current: d.fixes, previous: null, pct: null };
  const delta = d[m];
  return { current: delta.current, previous: delta.previous, pct: delta.pct };
}

/** Whether the digest's daily data is incomplete: a gap is never evidence of "no change". */
export function incomplete(d: Digest): boolean {
  return !d.seriesCheck.ok || d.series.some((p) => p.findings === null || p.violations === null);
}

const signed = (n: number, unit = "") => `${n > 0 ? "+" : n < 0 ? "−" : "±"}${fmt(Math.abs(n))}${unit}`;

/**
 * The verdict for one digest. `history` holds the metric's values of earlier runs, oldest first,
 * for `rising`. With incomplete data a condition that would skip the run posts instead, saying why.
 */
export function evaluate(
  c: Condition,
  d: Digest,
  history: readonly number[] = [],
  weekday?: WeekdaySeries,
): Verdict {
  const verdict = judge(c, d, history, weekday);
  // An unusual condition reads one day of its own series: a gap elsewhere in the digest says nothing
  // about it. Too few earlier weeks is no gap in the data either: the run is skipped and says why.
  const young = verdict.unusual?.kind === "unknown" && verdict.unusual.why === "history";
  const gap = c.kind === "unusual" ? verdict.unknown === true && !young : incomplete(d);
  if (!verdict.met && gap)
    return {
      ...verdict,
      met: true,
      reason: `data incomplete (${verdict.reason}); posted so the gap is seen`,
    };
  return verdict;
}

/**
 * The verdict on the numbers as they are, gaps or not: what an alert reads (it holds its state over
 * a gap instead of posting, see alert-run.ts). Digest runs go through `evaluate`.
 */
export function judge(
  c: Condition,
  d: Digest,
  history: readonly number[] = [],
  weekday?: WeekdaySeries,
): Verdict {
  if (c.kind === "unusual") return judgeUnusual(c, weekday);
  if (c.kind === "rate") return judgeRate(c, d);
  if (c.kind === "changed") {
    const moved = d.findings.change !== 0 || d.violations.change !== 0;
    return { met: moved, reason: moved ? "the numbers moved" : "nothing changed since the previous period" };
  }
  const v = valuesOf(d, c.metric);
  if (c.kind === "threshold") {
    const met = c.op === ">" ? v.current > c.value : v.current < c.value;
    return {
      met,
      reason: `${c.metric} ${fmt(v.current)} ${met ? "" : "not "}${c.op} ${fmt(c.value)}`.replace("  ", " "),
    };
  }
  if (c.kind === "rising") {
    const series = [...history.slice(-c.periods), v.current];
    const rises = series.slice(1).filter((x, i) => x > (series[i] as number)).length;
    const met = series.length > c.periods && rises === c.periods;
    return {
      met,
      reason: met
        ? `${c.metric} rose ${c.periods} periods in a row`
        : series.length <= c.periods
          ? `${c.metric}: only ${series.length - 1} earlier period(s) known of ${c.periods}`
          : `${c.metric} rose in ${rises} of the last ${c.periods} periods`,
    };
  }
  // Parsing refuses change conditions on fixes: only findings and violations have a previous period.
  const change = v.current - (v.previous ?? v.current);
  const signOk = c.direction === "any" || (c.direction === "up" ? change > 0 : change < 0);
  if (c.unit === "count") {
    const met = signOk && Math.abs(change) >= c.by;
    return { met, reason: `${c.metric} ${signed(change)} (${met ? "≥" : "<"} ${fmt(c.by)})` };
  }
  // From 0 to something is "new": larger than any percentage.
  const pct = v.pct ?? (change > 0 ? Number.POSITIVE_INFINITY : 0);
  const met = signOk && Math.abs(pct) >= c.by;
  const shown = Number.isFinite(pct) ? signed(pct, "%") : "new";
  return { met, reason: `${c.metric} ${shown} (${met ? "≥" : "<"} ${fmt(c.by)}%)` };
}

/**
 * A rate condition against the rate the digest shows (formatRate, one decimal): compared as shown, so
 * a message never reads "fix rate 60% < 60%". No fixes and no violations in the period make no rate
 * at all: unknown, which neither fires an alert nor clears one.
 */
export function judgeRate(c: Extract<Condition, { kind: "rate" }>, d: Pick<Digest, "fixRate">): Verdict {
  const threshold = `${fmt(c.pct)}%`;
  if (d.fixRate === null)
    return {
      met: false,
      unknown: true,
      reason: `fix rate unknown: no violations and no fixes in the period (threshold ${c.op} ${threshold})`,
    };
  const text = formatRate(d.fixRate);
  // The number read back from its own text: the comparison and the message cannot round apart.
  const shown = Number(text.replace(/[%,]/g, ""));
  const met = c.op === ">" ? shown > c.pct : shown < c.pct;
  return { met, reason: `fix rate ${text} ${met ? "" : "not "}${c.op} ${threshold}` };
}

/**
 * The count whose drivers explain a verdict. A fix rate's is its fixes: the rate's own count, and the
 * one a team acts on (the violations behind it are in the digest).
 */
export function explainedMeasure(c: Condition | null): Measure {
  if (!c || c.kind === "changed") return "violations";
  return c.kind === "rate" ? "fixes" : c.metric;
}

const times = (x: number) => `${x >= 1 ? fmt(x) : x.toFixed(2)}×`;

/**
 * An unusual condition on the latest complete day: "violations 412 yesterday (Tue Nov 17); a usual
 * Tuesday is 150–210, 2.3× its median". A day the data cannot speak for is `unknown`, never "usual".
 */
export function judgeUnusual(
  c: Extract<Condition, { kind: "unusual" }>,
  weekday: WeekdaySeries | undefined,
): Verdict {
  if (!weekday) return { met: false, unknown: true, reason: `${c.metric}: no daily series to judge` };
  const rule = { ...DEFAULT_UNUSUAL_RULE, sensitivity: c.sensitivity ?? DEFAULT_UNUSUAL_RULE.sensitivity };
  const j = judgeDay(weekday.points, c.metric, weekday.day, rule, undefined, weekday.sliceGaps);
  const when = weekday.day === weekday.yesterday ? `yesterday (${dayWords(j.day)})` : `on ${dayWords(j.day)}`;
  const usual = `a usual ${weekdayName(weekday.day)}`;
  if (j.kind === "unknown") {
    const why = {
      missing: "the service sent no numbers for it",
      gap: `a data gap (no data from ${j.gap?.dimension === "total" || !j.gap ? "any scanner" : j.gap.label.slice(0, 40)}${j.gap ? ` since ${dayWords(j.gap.from)}` : ""})`,
      silent: `no activity at all, on a weekday that is normally busy`,
      history: `only ${j.weeks} of the last ${rule.weeks} ${weekdayName(weekday.day)}s known (${rule.minWeeks} needed)`,
    }[j.why];
    // The cause first: a run's recorded reason is cut at a word past REASON_CHARS (160). Too little
    // history is unknown too: an alert that fired holds its state until the day can be judged, as
    // over a gap, instead of clearing on a day nobody judged.
    return { met: false, unknown: true, reason: `${c.metric} not judged ${when}: ${why}`, unusual: j };
  }
  const band = `${fmt(Math.round(j.band.low))}–${fmt(Math.round(j.band.high))}`;
  const met = j.direction !== "within" && (c.direction === "any" || c.direction === j.direction);
  const value = `${c.metric} ${fmt(j.value)} ${when}`;
  if (j.direction === "within") return { met, reason: `${value}, within ${usual} (${band})`, unusual: j };
  const far = j.band.median > 0 ? `, ${times(j.value / j.band.median)} its median` : "";
  return { met, reason: `${value}; ${usual} is ${band}${far}`, unusual: j };
}
