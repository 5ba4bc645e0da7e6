/** Small statistics helpers for the bench: quantiles over samples, rounding, formatting. */

export interface Summary {
  n: number;
  p50: number;
  p90: number;
  /** Absent in reports written before it was added. */
  p95?: number;
  p99: number;
  max: number;
  mean: number;
}

/** The q-quantile (nearest rank) of unsorted samples; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[at] ?? 0;
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) return { n: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const sorted = Float64Array.from(values).sort();
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    n: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    max: round(sorted[sorted.length - 1] ?? 0),
    mean: round(sum / sorted.length),
  };
}

/**
 * Time per call of `fn` in µs: warmed up first (JIT), then the median of five rounds of
 * `iterations / 5` calls each, so one GC pause or a neighbour's burst does not decide the figure.
 */
export function microsPerCall(fn: () => unknown, iterations: number): number {
  const perRound = Math.max(1, Math.floor(iterations / 5));
  for (let i = 0; i < Math.min(1_000, iterations); i++) fn();
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < perRound; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - start) / 1000 / perRound);
  }
  return round(quantile(rounds, 0.5), 1);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it is truthy or `timeoutMs` passes; returns whether it became true. */
export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
}

/** "1,234" */
export const int = (n: number) => Math.round(n).toLocaleString("en-US");
