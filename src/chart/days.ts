import type { IsoDay } from "../analytics/types.ts";

/** Which days of the series get an x-axis label, and what it says. */

export interface DayTick {
  /** Position in the series. */
  index: number;
  label: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_STEPS = [1, 2, 3, 7, 14, 21, 28];
const MONTH_STEPS = [1, 2, 3, 6, 12];
/** Past about three months, day labels stop meaning much; month starts take over. */
const MONTHLY_FROM_DAYS = 93;

interface Ymd {
  y: number;
  m: number;
  d: number;
}

function parseDay(day: IsoDay): Ymd | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return m >= 1 && m <= 12 && d >= 1 && d <= 31 ? { y, m, d } : null;
}

/**
 * Labels for `days` with at most `maxLabels` of them: every few days (counted back from the last
 * day, the one readers care about) for short ranges, month starts for long ones. The year shows
 * where it changes, so a range across New Year stays unambiguous; otherwise the subtitle says it.
 *
 * @example dayTicks(["2026-11-01", "2026-11-02"], 8) // [{ index: 0, label: "Nov 1" }, { index: 1, label: "Nov 2" }]
 */
export function dayTicks(days: readonly IsoDay[], maxLabels: number): DayTick[] {
  const parsed = days.map(parseDay);
  const limit = Math.max(1, Math.floor(maxLabels));
  const ticks = days.length >= MONTHLY_FROM_DAYS ? monthTicks(parsed, limit) : everyFewDays(parsed, limit);
  let previousYear = parsed.find((p) => p !== null)?.y;
  return ticks.map(({ index, ymd, monthly }) => {
    const month = MONTHS[ymd.m - 1] ?? "";
    const text = monthly ? month : `${month} ${ymd.d}`;
    // Only the first label of a new year carries it: "Dec 28, Jan 4 2027" reads unambiguously.
    const withYear = ymd.y !== previousYear;
    previousYear = ymd.y;
    return { index, label: withYear ? `${text} ${ymd.y}` : text };
  });
}

interface RawTick {
  index: number;
  ymd: Ymd;
  monthly: boolean;
}

function everyFewDays(parsed: ReadonlyArray<Ymd | null>, limit: number): RawTick[] {
  const n = parsed.length;
  const step = DAY_STEPS.find((s) => Math.ceil(n / s) <= limit) ?? Math.ceil(n / limit);
  const out: RawTick[] = [];
  for (let i = n - 1; i >= 0; i -= step) {
    const ymd = parsed[i];
    if (ymd) out.push({ index: i, ymd, monthly: false });
  }
  return out.reverse();
}

function monthTicks(parsed: ReadonlyArray<Ymd | null>, limit: number): RawTick[] {
  const starts: RawTick[] = [];
  parsed.forEach((ymd, index) => {
    if (ymd && ymd.d === 1) starts.push({ index, ymd, monthly: true });
  });
  const step = MONTH_STEPS.find((s) => Math.ceil(starts.length / s) <= limit) ?? 12;
  // Keep months on a calendar grid (Jan, Apr, Jul, Oct for a step of 3), not wherever the range began.
  return starts.filter((t) => (t.ymd.m - 1) % step === 0);
}
