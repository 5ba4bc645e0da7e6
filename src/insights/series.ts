import type { DailyActivity, DailyMetric, IsoDay } from "../analytics/types.ts";
import { enumerateDays } from "./days.ts";
import { dayOfTimeStamp } from "./timestamps.ts";
import type { DayPoint, SeriesCheck } from "./types.ts";

interface Placed<T> {
  byDay: Map<IsoDay, T>;
  dropped: number;
  bad: number;
  unsorted: boolean;
}

/** Files entries under their day, whatever order they came in; counts what could not be placed. */
function place<T extends { timeStamp: string }>(entries: readonly T[], from: IsoDay, to: IsoDay): Placed<T> {
  const byDay = new Map<IsoDay, T>();
  let dropped = 0;
  let bad = 0;
  let unsorted = false;
  let last: IsoDay | null = null;
  for (const entry of entries) {
    const day = dayOfTimeStamp(entry?.timeStamp);
    if (day === null) {
      bad++;
      continue;
    }
    if (last !== null && day < last) unsorted = true;
    last = day;
    // Of duplicates the first wins: neither is more trustworthy, and the check flags the reply.
    if (day < from || day > to || byDay.has(day)) dropped++;
    else byDay.set(day, entry);
  }
  return { byDay, dropped, bad, unsorted };
}

/** A count as received, or null when it is not a finite number: unknown is a gap, never zero. */
function count(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** The daily lists of an insights reply. */
export interface SeriesInput {
  dailyMetric: readonly DailyMetric[];
  dailyActivity: readonly DailyActivity[];
}

/**
 * The common reply, read without filing entries by day: both lists hold exactly one entry per day of
 * the range, ascending. Null for anything else (the general repair below handles it). A storm's
 * drivers repair every slice of every digest, and the maps were most of that work.
 */
function inOrder(input: SeriesInput, range: { from: IsoDay; to: IsoDay }) {
  const metric = input.dailyMetric ?? [];
  const activity = input.dailyActivity ?? [];
  const days = enumerateDays(range.from, range.to);
  if (metric.length !== days.length || activity.length !== days.length) return null;
  const points = new Array<DayPoint>(days.length);
  for (let i = 0; i < days.length; i++) {
    const day = days[i] as IsoDay;
    const m = metric[i];
    const a = activity[i];
    if (dayOfTimeStamp(m?.timeStamp) !== day || dayOfTimeStamp(a?.timeStamp) !== day || !m || !a) return null;
    points[i] = {
      day,
      findings: count(m.findings),
      violations: count(m.violations),
      fixed: count(a.fixedViolations),
      merged: count(a.mergedViolations),
    };
  }
  const check: SeriesCheck = {
    ok: true,
    missingDays: [],
    droppedEntries: 0,
    unsorted: false,
    badTimeStamps: 0,
  };
  return { points, check };
}

/**
 * Checks the two daily lists against the range and repairs what is safe to repair: exactly one
 * point per day from `from` to `to`, ascending; entries outside the range, duplicates (first kept)
 * and malformed time stamps dropped; a day either list lacks becomes null in that list's fields
 * and is reported in `missingDays`. A gap is never filled with zero.
 */
export function repairSeries(
  input: SeriesInput,
  range: { from: IsoDay; to: IsoDay },
): { points: DayPoint[]; check: SeriesCheck } {
  const exact = inOrder(input, range);
  if (exact) return exact;
  const metric = place(input.dailyMetric ?? [], range.from, range.to);
  const activity = place(input.dailyActivity ?? [], range.from, range.to);
  const missingDays: IsoDay[] = [];
  const points = enumerateDays(range.from, range.to).map((day): DayPoint => {
    const m = metric.byDay.get(day);
    const a = activity.byDay.get(day);
    if (!m || !a) missingDays.push(day);
    return {
      day,
      findings: m ? count(m.findings) : null,
      violations: m ? count(m.violations) : null,
      fixed: a ? count(a.fixedViolations) : null,
      merged: a ? count(a.mergedViolations) : null,
    };
  });
  const droppedEntries = metric.dropped + activity.dropped;
  const badTimeStamps = metric.bad + activity.bad;
  const unsorted = metric.unsorted || activity.unsorted;
  return {
    points,
    check: {
      ok: missingDays.length === 0 && droppedEntries === 0 && badTimeStamps === 0 && !unsorted,
      missingDays,
      droppedEntries,
      unsorted,
      badTimeStamps,
    },
  };
}
