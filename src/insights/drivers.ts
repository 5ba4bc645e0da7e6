import { MEASURES, type Measure, type MeasureTotals, type PeriodPair } from "./period-totals.ts";

/**
 * Drivers of a change: which asset groups and which scanners moved findings, violations and fixes
 * between the previous period and this one. Each breakdown names its top contributors in both
 * directions and puts everything else in one "other" row, so its rows always add up to the total
 * (parts the service never answered for, or rounding in its totals, land there too, never nowhere).
 */

/** What a slice is cut by: the top level of asset names, or the scanner. */
export type Dimension = "group" | "scanner";

/** One slice's counts: a group's assets, or one scanner, within the digest's filters. */
export interface Slice {
  dimension: Dimension;
  /** The group name or scanner id (what a button narrows to). */
  key: string;
  /** What the reader sees: `payments/*`, `SCA (dependencies)`. */
  label: string;
  totals: MeasureTotals;
}

export interface Contribution extends PeriodPair {
  dimension: Dimension;
  /** null for the "other" row. */
  key: string | null;
  label: string;
  /** current − previous */
  change: number;
  /** Nothing before, something now: a newcomer rather than a percentage. */
  isNew: boolean;
}

export interface Breakdown {
  measure: Measure;
  dimension: Dimension;
  total: PeriodPair & { change: number };
  /** Largest increases first, at most `top`. */
  up: Contribution[];
  /** Largest decreases first, at most `top`. */
  down: Contribution[];
  /** Everything not named above; null only when that is nothing at all. */
  other: Contribution | null;
  /** Slices behind this breakdown, named or not (so a reader knows how many "other" holds). */
  slices: number;
}

export interface Drivers {
  total: MeasureTotals;
  breakdowns: Breakdown[];
}

export interface DriversInput {
  /** The counts of the whole digest (its filters applied, no slicing). */
  total: MeasureTotals;
  slices: readonly Slice[];
  /** Contributors named per direction; default 3. */
  top?: number;
}

function contribution(
  dimension: Dimension,
  key: string | null,
  label: string,
  pair: PeriodPair,
): Contribution {
  const change = pair.current - pair.previous;
  const isNew = pair.previous === 0 && pair.current > 0;
  return { dimension, key, label, current: pair.current, previous: pair.previous, change, isNew };
}

/**
 * Puts slice `i` among the `top` first of `list` (kept in order by `before`), after any it ties with:
 * the same rows as sorting every slice stably and taking the first `top`, without a row per slice.
 */
function keepTop(list: number[], i: number, top: number, before: (a: number, b: number) => number): void {
  let at = list.length;
  while (at > 0 && before(i, list[at - 1] as number) < 0) at--;
  if (at >= top) return;
  list.splice(at, 0, i);
  if (list.length > top) list.pop();
}

function breakdown(
  measure: Measure,
  dimension: Dimension,
  total: PeriodPair,
  slices: readonly Slice[],
  top: number,
): Breakdown {
  // A storm computes this for every digest over every slice: only the named rows become objects.
  const pair = (i: number) => (slices[i] as Slice).totals[measure];
  const change = (i: number) => pair(i).current - pair(i).previous;
  const label = (i: number) => (slices[i] as Slice).label;
  const byLabelOf = (a: number, b: number) => (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0);
  const upFirst = (a: number, b: number) => change(b) - change(a) || byLabelOf(a, b);
  const downFirst = (a: number, b: number) => change(a) - change(b) || byLabelOf(a, b);
  const upIds: number[] = [];
  const downIds: number[] = [];
  for (let i = 0; i < slices.length; i++) {
    const c = change(i);
    if (c > 0) keepTop(upIds, i, top, upFirst);
    else if (c < 0) keepTop(downIds, i, top, downFirst);
  }
  const row = (i: number) => {
    const s = slices[i] as Slice;
    return contribution(dimension, s.key, s.label, s.totals[measure]);
  };
  const up = upIds.map(row);
  const down = downIds.map(row);
  const named = [...up, ...down];
  const rest: PeriodPair = {
    current: total.current - named.reduce((s, r) => s + r.current, 0),
    previous: total.previous - named.reduce((s, r) => s + r.previous, 0),
  };
  const unnamed = slices.length - named.length;
  const other =
    unnamed > 0 || rest.current !== 0 || rest.previous !== 0
      ? contribution(dimension, null, "other", rest)
      : null;
  return {
    measure,
    dimension,
    total: { ...total, change: total.current - total.previous },
    up,
    down,
    other,
    slices: slices.length,
  };
}

/**
 * Breakdowns of every measure by every dimension that has slices.
 *
 * @example
 * const d = computeDrivers({ total, slices });
 * const v = d.breakdowns.find((b) => b.measure === "violations" && b.dimension === "group");
 * // v.up[0] = { label: "payments/*", change: 31, … }; Σ up + Σ down + other = v.total.change
 */
export function computeDrivers(input: DriversInput): Drivers {
  const top = Math.max(1, Math.floor(input.top ?? 3));
  const breakdowns: Breakdown[] = [];
  for (const dimension of ["group", "scanner"] as const) {
    const slices = input.slices.filter((s) => s.dimension === dimension);
    if (slices.length === 0) continue;
    for (const measure of MEASURES)
      breakdowns.push(breakdown(measure, dimension, input.total[measure], slices, top));
  }
  return { total: input.total, breakdowns };
}

/** The breakdown of one measure by one dimension, if there is one. */
export function breakdownOf(drivers: Drivers, measure: Measure, dimension: Dimension): Breakdown | undefined {
  return drivers.breakdowns.find((b) => b.measure === measure && b.dimension === dimension);
}

/**
 * The contributor that moved a measure most, across both dimensions (by size of change; an increase
 * wins a tie, being the thing a reader asks about). Null when nothing named moved.
 */
export function topDriver(drivers: Drivers, measure: Measure): Contribution | null {
  let best: Contribution | null = null;
  for (const b of drivers.breakdowns) {
    if (b.measure !== measure) continue;
    for (const c of [...b.up, ...b.down]) {
      const bigger = best === null || Math.abs(c.change) > Math.abs(best.change);
      const tieUp = best !== null && Math.abs(c.change) === Math.abs(best.change) && c.change > best.change;
      if (bigger || tieUp) best = c;
    }
  }
  return best;
}
