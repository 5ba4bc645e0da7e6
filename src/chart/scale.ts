/** Value scales and y-axis ticks. Pure arithmetic, no SVG. */

export interface Ticks {
  /** Domain bottom and top: the first and last tick. */
  min: number;
  max: number;
  step: number;
  values: number[];
}

/** Counts smaller than this still get an axis of 0..4, so a flat line at 0 or 1 reads as "small". */
const MIN_DOMAIN_TOP = 4;

/**
 * "Nice" ticks (1, 2, 2.5, 5 × 10ⁿ) covering `[dataMin, dataMax]`, always including 0. Steps are
 * whole numbers because the series counts things.
 *
 * @example niceTicks(0, 870) // { min: 0, max: 1000, step: 200, values: [0, 200, …, 1000] }
 */
export function niceTicks(dataMin: number, dataMax: number, target = 5): Ticks {
  const lo = Math.min(0, finiteOr(dataMin, 0));
  const hi = Math.max(lo === 0 ? MIN_DOMAIN_TOP : 0, finiteOr(dataMax, 0));
  const step = Math.max(1, niceStep((hi - lo) / target));
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const values: number[] = [];
  // Counting by index, not by adding steps, keeps 1e12-sized ticks free of float drift.
  const count = Math.round((max - min) / step);
  for (let i = 0; i <= count; i += 1) values.push(min + i * step);
  return { min, max, step, values };
}

function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / magnitude;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10;
  // A step of 2.5 would put counts at 7.5; a few more ticks of 2 read better.
  if (nice === 2.5 && magnitude < 10) return 2;
  return nice * magnitude;
}

function finiteOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}

/** Maps `[d0, d1]` onto `[r0, r1]`; a zero-width domain maps to the middle of the range. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (value: number) => number {
  const span = d1 - d0;
  if (span === 0) return () => (r0 + r1) / 2;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** One decimal is finer than a pixel and keeps the SVG short and byte-stable. */
export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
