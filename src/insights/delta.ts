import type { Delta, Direction, Sentiment } from "./types.ts";

/** Which way is good news: more findings or violations is bad, more fixes is good. */
export type Polarity = "up-is-bad" | "up-is-good";

function sentimentOf(direction: Direction, polarity: Polarity): Sentiment {
  if (direction === "flat") return "neutral";
  return (direction === "up") === (polarity === "up-is-good") ? "good" : "bad";
}

/**
 * Period-over-period change of one count.
 *
 * `pct` is in percent (12.5 means +12.5 %). With previous = 0 there is no base to divide by:
 * 0 → 0 is flat with pct 0, 0 → n is `isNew` with pct null (shown as "new", never ∞). Values up
 * to Number.MAX_SAFE_INTEGER stay finite (the ratio is at most ~9e17 %).
 *
 * @example delta(9, 8, "up-is-bad") // { change: 1, pct: 12.5, direction: "up", sentiment: "bad", … }
 */
export function delta(current: number, previous: number, polarity: Polarity): Delta {
  const change = current - previous;
  const direction: Direction = change > 0 ? "up" : change < 0 ? "down" : "flat";
  let pct: number | null;
  if (previous === 0) pct = current === 0 ? 0 : null;
  else {
    // Math.abs keeps the sign meaningful should a negative base ever slip through validation.
    const ratio = (change / Math.abs(previous)) * 100;
    pct = Number.isFinite(ratio) ? ratio : null;
  }
  return {
    current,
    previous,
    change,
    pct,
    direction,
    sentiment: sentimentOf(direction, polarity),
    isNew: previous === 0 && current > 0,
  };
}
