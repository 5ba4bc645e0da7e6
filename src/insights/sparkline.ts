/** Eight levels, lowest first. */
export const SPARK_LEVELS = "▁▂▃▄▅▆▇█";
/** Widest sparkline; longer series are bucketed so a 90- or 365-day trend still fits a line. */
export const MAX_SPARK_WIDTH = 60;

/**
 * Sums consecutive values into buckets of ceil(n / maxWidth) days, so at most `maxWidth` remain.
 * A bucket is a gap (null) only when all its days are gaps; otherwise it sums the known days.
 * The last bucket may be shorter than the others.
 */
export function bucketValues(
  values: readonly (number | null)[],
  maxWidth = MAX_SPARK_WIDTH,
): (number | null)[] {
  const width = Math.max(1, Math.floor(maxWidth));
  if (values.length <= width) return [...values];
  const size = Math.ceil(values.length / width);
  const out: (number | null)[] = [];
  for (let i = 0; i < values.length; i += size) {
    let sum: number | null = null;
    for (const v of values.slice(i, i + size)) if (v !== null) sum = (sum ?? 0) + v;
    out.push(sum);
  }
  return out;
}

/**
 * One character per value (after bucketing), scaled from zero to the maximum: zero is ▁, any
 * positive value at least ▂ so "some" never looks like "none", the maximum is █, a gap is a space.
 * An all-zero series is ▁ everywhere.
 *
 * @example sparkline([0, 5, null, 10]) // "▁▅ █"
 */
export function sparkline(values: readonly (number | null)[], maxWidth = MAX_SPARK_WIDTH): string {
  const buckets = bucketValues(values, maxWidth);
  let max = 0;
  for (const v of buckets) if (v !== null && v > max) max = v;
  const top = SPARK_LEVELS.length - 1;
  return buckets
    .map((v) => {
      if (v === null) return " ";
      if (v <= 0 || max === 0) return SPARK_LEVELS[0];
      return SPARK_LEVELS[Math.min(top, Math.max(1, Math.ceil((v / max) * top)))];
    })
    .join("");
}
