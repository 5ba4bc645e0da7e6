import { dayStart } from "./day-stamps.ts";
import type { DailyActivity, DailyMetric, FilterOption, InsightsResult, SliceSeries } from "./types.ts";

/**
 * The common case of schema.ts's checks without zod: a well-formed reply read in one plain pass.
 * Validating a storm's replies through zod cost more of the worker's CPU than anything else a
 * digest with drivers does. Each reader accepts only what the zod schema accepts and returns what
 * it returns (known keys only, time stamps in their plain form); on anything else it returns null,
 * and the caller runs the schema, whose issues name what is wrong.
 */

/** Not a null, not an array: what z.object takes. */
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** What `z.int().nonnegative()` takes. */
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

const stampOf = (v: unknown): string | null => (typeof v === "string" ? dayStart(v) : null);

/**
 * A daily list whose entries carry a time stamp under `t` and two counts under `a` and `b` (the
 * contract's names, or a slice's one-letter aliases), built by `make`; null when any entry is off.
 */
function dailyList<T>(
  v: unknown,
  t: string,
  a: string,
  b: string,
  make: (timeStamp: string, a: number, b: number) => T,
): T[] | null {
  if (!Array.isArray(v)) return null;
  const out = new Array<T>(v.length);
  for (let i = 0; i < v.length; i++) {
    const e: unknown = v[i];
    if (!isRecord(e)) return null;
    const timeStamp = stampOf(e[t]);
    const first = e[a];
    const second = e[b];
    if (timeStamp === null || !isCount(first) || !isCount(second)) return null;
    out[i] = make(timeStamp, first, second);
  }
  return out;
}

const metricList = (v: unknown, t: string, violations: string, findings: string) =>
  dailyList<DailyMetric>(v, t, violations, findings, (timeStamp, vi, fi) => ({
    timeStamp,
    violations: vi,
    findings: fi,
  }));

const activityList = (v: unknown, t: string, fixed: string, merged: string) =>
  dailyList<DailyActivity>(v, t, fixed, merged, (timeStamp, x, g) => ({
    timeStamp,
    fixedViolations: x,
    mergedViolations: g,
  }));

/** A slices reply (aliased fields `m`/`a` with `t`, `v`, `f`, `x`, `g`), each alias in the order asked; null = let zod judge. */
export function readSlices(data: unknown, aliases: readonly string[]): SliceSeries[] | null {
  if (!isRecord(data)) return null;
  const out: SliceSeries[] = [];
  for (const alias of aliases) {
    const r = data[alias];
    if (!isRecord(r)) return null;
    const dailyMetric = metricList(r.m, "t", "v", "f");
    const dailyActivity = dailyMetric && activityList(r.a, "t", "x", "g");
    if (!dailyMetric || !dailyActivity) return null;
    out.push({ dailyMetric, dailyActivity });
  }
  return out;
}

const periodOf = (v: unknown) => (isRecord(v) && isCount(v.previous) && isCount(v.current) ? v : null);

function optionList(v: unknown): FilterOption[] | null {
  if (!Array.isArray(v)) return null;
  const out = new Array<FilterOption>(v.length);
  for (let i = 0; i < v.length; i++) {
    const o: unknown = v[i];
    if (!isRecord(o)) return null;
    const { value, displayValue } = o;
    if (typeof value !== "string" || value.length === 0 || typeof displayValue !== "string") return null;
    out[i] = { value, displayValue };
  }
  return out;
}

/** `data` of an insights reply, `filters` included when present; null = let zod judge. */
export function readInsights(data: unknown): InsightsResult | null {
  if (!isRecord(data) || !isRecord(data.insights)) return null;
  const r = data.insights;
  const dailyMetric = metricList(r.dailyMetric, "timeStamp", "violations", "findings");
  const dailyActivity =
    dailyMetric && activityList(r.dailyActivity, "timeStamp", "fixedViolations", "mergedViolations");
  const s = r.summary;
  if (!dailyMetric || !dailyActivity || !isRecord(s)) return null;
  const findings = periodOf(s.findings);
  const violations = periodOf(s.violations);
  if (!findings || !violations || !isCount(s.fixes) || !isCount(s.mergedViolations)) return null;
  const summary = {
    findings: { previous: findings.previous as number, current: findings.current as number },
    violations: { previous: violations.previous as number, current: violations.current as number },
    fixes: s.fixes,
    mergedViolations: s.mergedViolations,
  };
  const f = r.filters;
  if (f === null || f === undefined) return { dailyMetric, dailyActivity, summary };
  if (!isRecord(f)) return null;
  const scannerId = optionList(f.scannerId);
  const assetId = scannerId && optionList(f.assetId);
  if (!scannerId || !assetId) return null;
  return { dailyMetric, dailyActivity, summary, filters: { scannerId, assetId } };
}
