/** Turns a series with gaps into SVG path data: runs of known values become lines, gaps stay empty. */

export type Point = readonly [x: number, y: number];

export interface Line {
  /** `M…L…` path data, one subpath per unbroken run; empty when nothing to draw. */
  d: string;
  /** Runs of a single day have no length, so they are drawn as dots or they would vanish. */
  lonely: Point[];
}

/** A value the chart can place: finite numbers only; null, NaN and ±Infinity are gaps. */
export function isKnown(value: number | null | undefined): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * Path data for `values`, broken wherever a value is missing.
 *
 * @example linePath([1, null, 3, 4], (i) => i * 10, (v) => v) // { d: "M20 3L30 4", lonely: [[0, 1]] }
 */
export function linePath(
  values: ReadonlyArray<number | null>,
  x: (index: number) => number,
  y: (value: number) => number,
): Line {
  const parts: string[] = [];
  const lonely: Point[] = [];
  let run: Point[] = [];
  const flush = (): void => {
    if (run.length === 1 && run[0]) lonely.push(run[0]);
    else if (run.length > 1)
      parts.push(run.map(([px, py], i) => `${i === 0 ? "M" : "L"}${px} ${py}`).join(""));
    run = [];
  };
  values.forEach((value, index) => {
    if (isKnown(value)) run.push([x(index), y(value)]);
    else flush();
  });
  flush();
  return { d: parts.join(""), lonely };
}

/** Inclusive index ranges where `missing(i)` holds, merged: the days with no data at all. */
export function gapRuns(length: number, missing: (index: number) => boolean): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < length; i += 1) {
    if (!missing(i)) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  return runs;
}
