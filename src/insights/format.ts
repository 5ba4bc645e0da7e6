import type { Delta, Direction } from "./types.ts";

/** U+2212, the typographic minus: it lines up with "+" where a hyphen looks like a dash. */
export const MINUS = "\u2212";

const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

// Hand-rolled rather than Intl's compact notation, whose output for very large numbers differs
// between the ICU versions of Node 20 and 24.
const UNITS: [number, string][] = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
  [1e3, "K"],
];

function compactAbs(abs: number): string {
  for (let i = 0; i < UNITS.length; i++) {
    const [size, suffix] = UNITS[i] as [number, string];
    if (abs < size) continue;
    const scaled = Math.round((abs / size) * 10) / 10;
    // 999,950 rounds to 1000K: say 1M instead.
    const bigger = UNITS[i - 1];
    if (scaled >= 1000 && bigger)
      return `${oneDecimal.format(Math.round((abs / bigger[0]) * 10) / 10)}${bigger[1]}`;
    return `${oneDecimal.format(scaled)}${suffix}`;
  }
  return whole.format(abs);
}

/**
 * `whole.format(abs)` for the counts digests are made of, without Intl's cost: a digest with its
 * drivers table formats a few hundred numbers, and Intl took most of its render time. Whole numbers
 * up to 2^53 are grouped here (rounding halves up, as Intl does); anything else goes to Intl.
 */
function wholeAbs(abs: number): string {
  const rounded = Math.round(abs);
  if (!Number.isSafeInteger(rounded)) return whole.format(abs);
  const digits = String(rounded);
  if (digits.length <= 3) return digits;
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return out;
}

/** Options for count formatting. */
export interface CountFormat {
  /** "1.2M" instead of "1,234,567", for one-line fallback text and tight spots. */
  compact?: boolean;
}

/**
 * A count with en-US thousands separators, or compact ("1.2M", "12K"). Negative numbers use "−";
 * non-finite values render as "—" rather than "NaN".
 *
 * @example formatCount(1234567) // "1,234,567"
 * @example formatCount(1234567, { compact: true }) // "1.2M"
 */
export function formatCount(n: number, options: CountFormat = {}): string {
  if (!Number.isFinite(n)) return "—";
  const text = options.compact ? compactAbs(Math.abs(n)) : wholeAbs(Math.abs(n));
  return n < 0 && text !== "0" ? `${MINUS}${text}` : text;
}

/** A signed count for changes: "+1,234", "−56", "0". */
export function formatSigned(n: number, options: CountFormat = {}): string {
  if (!Number.isFinite(n)) return "—";
  const text = formatCount(n, options);
  return n > 0 && text !== "0" ? `+${text}` : text;
}

/**
 * The % change of a delta: "+12.5%", "−3%", "0%", or "new" when the previous period had none.
 * One decimal below 100 %, none above; a real change that rounds to zero shows as "+<0.1%".
 */
export function formatPct(d: Delta, options: CountFormat = {}): string {
  if (d.isNew) return "new";
  if (d.pct === null) return "—";
  if (d.pct === 0) return "0%";
  const sign = d.pct > 0 ? "+" : MINUS;
  const abs = Math.abs(d.pct);
  if (abs < 0.05) return `${sign}<0.1%`;
  const text =
    options.compact && abs >= 10_000
      ? compactAbs(abs)
      : abs >= 100
        ? whole.format(abs)
        : oneDecimal.format(abs);
  return `${sign}${text}%`;
}

/** A 0..1 rate as a percentage with one decimal ("73.4%"); null (nothing to rate) as "—". */
export function formatRate(rate: number | null): string {
  if (rate === null || !Number.isFinite(rate)) return "—";
  return `${oneDecimal.format(rate * 100)}%`;
}

const MARKS: Record<Direction, string> = { up: "▲", down: "▼", flat: "■" };

/** A plain unicode mark for the direction of a delta: ▲ up, ▼ down, ■ flat. Templates add colour. */
export function directionMark(d: Pick<Delta, "direction">): string {
  return MARKS[d.direction];
}
