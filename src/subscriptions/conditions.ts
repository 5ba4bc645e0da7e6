import { AppError } from "../errors.ts";
import type { Digest } from "../insights/types.ts";

/**
 * Conditions on a subscription: post only when the numbers say something. Pure: the grammar that
 * turns `when violations up 10%` into a condition, the canonical text shown in lists, and the
 * verdict for one digest. A run whose condition is not met is recorded as skipped with the reason,
 * never dropped silently; missing data is never read as "no change".
 */

export const METRICS = ["findings", "violations", "fixes"] as const;
export type Metric = (typeof METRICS)[number];

export type Condition =
  /** Changed against the previous period by at least `by` (percent or count), in a direction. */
  | { kind: "change"; metric: Metric; by: number; unit: "pct" | "count"; direction: "up" | "down" | "any" }
  /** The current value is above (or below) an absolute threshold. */
  | { kind: "threshold"; metric: Metric; op: ">" | "<"; value: number }
  /** Rose in each of the last `periods` periods (needs the values of earlier runs). */
  | { kind: "rising"; metric: Metric; periods: number }
  /** Any of the numbers moved at all. */
  | { kind: "changed" };

export interface Verdict {
  met: boolean;
  /** Why, in words, with the value and the threshold: "violations +12% (≥ 10%)". */
  reason: string;
}

export const CONDITION_GRAMMAR = [
  "when violations changed 10%   (up or down by at least 10% against the previous period)",
  "when violations up 10%        (or: down 25, findings up 50 — a % or a count)",
  "when violations > 500         (or: findings < 100 — the current value against a threshold)",
  "when violations rose 3        (rose in each of the last 3 periods)",
  "when changed                  (anything moved at all)",
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
    throw bad(`"${(raw ?? "").slice(0, 20)}" is not a number I track: use findings, violations or fixes.`);
  return m as Metric;
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
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) throw bad("The condition is empty.");
  if (words.length === 1 && (words[0] === "changed" || words[0] === "anything")) return { kind: "changed" };
  if (words.join(" ") === "anything changed") return { kind: "changed" };
  const [m, verb, amount, ...rest] = words;
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
  throw bad(`"${(verb ?? "").slice(0, 20)}" is not a condition word: use changed, up, down, >, < or rose.`);
}

const fmt = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** The canonical text of a condition, re-parseable by parseCondition. */
export function conditionText(c: Condition): string {
  switch (c.kind) {
    case "changed":
      return "when changed";
    case "threshold":
      return `when ${c.metric} ${c.op} ${c.value}`;
    case "rising":
      return `when ${c.metric} rose ${c.periods}`;
    case "change":
      return `when ${c.metric} ${c.direction === "any" ? "changed" : c.direction} ${c.by}${c.unit === "pct" ? "%" : ""}`;
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
export function evaluate(c: Condition, d: Digest, history: readonly number[] = []): Verdict {
  const verdict = judge(c, d, history);
  if (!verdict.met && incomplete(d))
    return { met: true, reason: `data incomplete (${verdict.reason}); posted so the gap is seen` };
  return verdict;
}

/**
 * The verdict on the numbers as they are, gaps or not: what an alert reads (it holds its state over
 * a gap instead of posting, see alert-run.ts). Digest runs go through `evaluate`.
 */
export function judge(c: Condition, d: Digest, history: readonly number[] = []): Verdict {
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
