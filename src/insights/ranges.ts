import type { IsoDay } from "../analytics/types.ts";
import { todayIn } from "./dayjs.ts";
import { addDays, daysInclusive, isoWeekday, isValidIsoDay, startOfMonth, startOfQuarter } from "./days.ts";
import { formatRangeLabel } from "./labels.ts";
import { RangeParseError, type RangeParseReason } from "./range-errors.ts";
import {
  acceptedRangesText,
  MAX_LAST_DAYS,
  MAX_RANGE_DAYS,
  MIN_RANGE_DAY,
  matchRangeSpec,
  normalizeRangeText,
  type RangeSpec,
} from "./range-grammar.ts";
import type { ResolvedRange } from "./types.ts";

/** The clock and zone a range is resolved against; time always comes in from the caller. */
export interface RangeContext {
  now: Date;
  /** IANA zone, normally the Slack user's or the subscription's. */
  tz: string;
}

/**
 * Resolves a range of the command grammar against `now` in the IANA zone `tz`.
 *
 * Semantics (all ranges are whole calendar days in `tz`, both ends included):
 * - empty text = `last7d`.
 * - `lastNd` (N 1–365) = the N days ending **today**. The service holds "today so far", and a lead
 *   who types `/insights last7d` after an incident wants to see it; it also matches the service's
 *   own default window (toDay = today, fromDay = toDay − 6). The price: today is partial, so the
 *   current period is a few hours short of the comparison period.
 * - `thisweek` = Monday of the current ISO week .. today (one day on a Monday).
 * - `lastweek` = the previous ISO week, Monday..Sunday (on a Sunday: the week before this one).
 * - `yesterday` = the day before today, whole.
 * - `thismonth` = the 1st .. today; `lastmonth` = the whole previous month.
 * - `thisquarter` = the first day of the calendar quarter (Jan, Apr, Jul, Oct 1st) .. today;
 *   `lastquarter` = the whole previous calendar quarter.
 * - `ytd` = January 1st .. today (at most 366 days, the service's limit).
 * - `YYYY-MM-DD..YYYY-MM-DD` and a single `YYYY-MM-DD` as written.
 *
 * The comparison period is always the equally long period just before `from`, also for
 * `lastmonth` (February is compared with the 28 days before it, not with all of January), `lastquarter`
 * and `ytd`, so the two totals cover the same number of days and their % change means something.
 *
 * @throws RangeParseError (code `bad_range`) for garbage, `last0d`/`last366d`, impossible or
 *   inverted dates, ranges over 366 days, before 2000-01-01 or after today; the message lists the
 *   accepted forms.
 * @throws TimezoneError (code `bad_timezone`) for an unknown zone.
 * @example parseRange("last7d", { now: new Date("2026-11-21T12:00:00Z"), tz: "UTC" }).label
 *   // "Nov 15 – Nov 21, 2026"
 */
export function parseRange(text: string, ctx: RangeContext): ResolvedRange {
  const today = todayIn(ctx.now, ctx.tz);
  const input = normalizeRangeText(text);
  const fail = (reason: RangeParseReason, problem: string): never => {
    throw new RangeParseError(reason, text, `${problem} ${acceptedRangesText(today)}`);
  };
  const spec = matchRangeSpec(input);
  if (spec === null) return fail("not_a_range", `"${clip(text.trim())}" is not a date range.`);
  const { from, to, canonical } = resolveSpec(spec, today, fail);
  if (!isValidIsoDay(from)) return fail("bad_date", `${from} is not a real calendar date.`);
  if (!isValidIsoDay(to)) return fail("bad_date", `${to} is not a real calendar date.`);
  if (from > to) return fail("inverted", `The range ${from}..${to} ends before it starts.`);
  const days = daysInclusive(from, to);
  if (days > MAX_RANGE_DAYS) {
    return fail("too_long", `The range ${from}..${to} is ${days} days long; the limit is ${MAX_RANGE_DAYS}.`);
  }
  if (from < MIN_RANGE_DAY) return fail("too_early", `Data starts at ${MIN_RANGE_DAY}; ${from} is earlier.`);
  if (to > today) return fail("in_future", `${to} is in the future (today is ${today} in ${ctx.tz}).`);
  return buildRange(canonical, from, to, ctx.tz);
}

/** User text is echoed back in the error; keep a pasted essay from becoming the whole reply. */
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

type Fail = (reason: RangeParseReason, problem: string) => never;

function resolveSpec(
  spec: RangeSpec,
  today: IsoDay,
  fail: Fail,
): { from: IsoDay; to: IsoDay; canonical: string } {
  switch (spec.kind) {
    case "last": {
      if (spec.days < 1 || spec.days > MAX_LAST_DAYS) {
        fail("bad_count", `last${spec.days}d: the number of days must be from 1 to ${MAX_LAST_DAYS}.`);
      }
      return { from: addDays(today, 1 - spec.days), to: today, canonical: `last${spec.days}d` };
    }
    case "thisweek":
      return { from: addDays(today, 1 - isoWeekday(today)), to: today, canonical: spec.kind };
    case "lastweek": {
      const monday = addDays(today, 1 - isoWeekday(today) - 7);
      return { from: monday, to: addDays(monday, 6), canonical: spec.kind };
    }
    case "thismonth":
      return { from: startOfMonth(today), to: today, canonical: spec.kind };
    case "lastmonth": {
      const to = addDays(startOfMonth(today), -1);
      return { from: startOfMonth(to), to, canonical: spec.kind };
    }
    case "yesterday": {
      const day = addDays(today, -1);
      return { from: day, to: day, canonical: spec.kind };
    }
    case "thisquarter":
      return { from: startOfQuarter(today), to: today, canonical: spec.kind };
    case "lastquarter": {
      const to = addDays(startOfQuarter(today), -1);
      return { from: startOfQuarter(to), to, canonical: spec.kind };
    }
    case "ytd":
      return { from: `${today.slice(0, 4)}-01-01`, to: today, canonical: spec.kind };
    case "between":
      return { from: spec.from, to: spec.to, canonical: `${spec.from}..${spec.to}` };
    case "day":
      return { from: spec.day, to: spec.day, canonical: spec.day };
  }
}

/** A ResolvedRange for already-validated days, with the equally long comparison period before it. */
export function buildRange(spec: string, from: IsoDay, to: IsoDay, tz: string): ResolvedRange {
  const days = daysInclusive(from, to);
  const previousTo = addDays(from, -1);
  const previousFrom = addDays(from, -days);
  return {
    spec,
    label: formatRangeLabel(from, to),
    from,
    to,
    days,
    previousFrom,
    previousTo,
    previousLabel: formatRangeLabel(previousFrom, previousTo),
    tz,
  };
}
