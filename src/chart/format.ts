/**
 * Number labels for the chart. Fixed `,` separators and `M/B/T` suffixes, never the host locale:
 * the same input must give the same PNG bytes on every machine.
 */

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [1e12, "T"],
  [1e9, "B"],
  [1e6, "M"],
];

/** Above this a label no longer fits the y-axis gutter with separators, so it goes compact. */
const COMPACT_FROM = 1e6;

/**
 * `1234567` → `"1,234,567"`. Non-integers keep up to two decimals.
 *
 * @example formatCount(12500) // "12,500"
 */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return "–";
  const sign = value < 0 ? "-" : "";
  const rounded = Math.round(Math.abs(value) * 100) / 100;
  const [whole = "0", frac] = String(rounded).split(".");
  // Values beyond 1e21 stringify in exponent form; separators would only garble them.
  if (whole.includes("e")) return sign + whole;
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return sign + grouped + (frac ? `.${frac}` : "");
}

/**
 * Compact form for large values: `1_234_000_000_000` → `"1.2T"`; below a million it is
 * {@link formatCount}. `maxDecimals` lets axis ticks such as 1.25T stay distinct.
 *
 * @example formatCompact(1.2e12) // "1.2T"
 */
export function formatCompact(value: number, maxDecimals = 1): string {
  if (!Number.isFinite(value)) return "–";
  const abs = Math.abs(value);
  if (abs < COMPACT_FROM) return formatCount(value);
  if (abs >= 1e15) return value.toExponential(1).replace("e+", "e");
  for (const [size, suffix] of UNITS) {
    if (abs >= size) {
      const factor = 10 ** maxDecimals;
      const scaled = Math.round((value / size) * factor) / factor;
      // 999.96B rounds to 1000B; the next unit up says it better: 1T.
      if (Math.abs(scaled) >= 1000 && suffix !== "T") return formatCompact(Math.sign(value) * size * 1000);
      return `${String(scaled)}${suffix}`;
    }
  }
  return formatCount(value);
}

/** An axis tick: exact enough that neighbouring ticks (a `step` apart) never print the same. */
export function formatTick(value: number, step: number): string {
  const abs = Math.abs(value);
  if (abs < COMPACT_FROM) return formatCount(value);
  const unit = UNITS.find(([size]) => abs >= size)?.[0] ?? 1;
  const decimals = decimalsFor(step / unit);
  return formatCompact(value, Math.min(decimals, 3));
}

/** Decimals needed to print `x` exactly (to 3 places), e.g. 0.25 → 2, 2 → 0. */
function decimalsFor(x: number): number {
  for (let d = 0; d < 3; d += 1) {
    const scaled = x * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6) return d;
  }
  return 3;
}
