import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import type { IsoDay } from "../analytics/types.ts";
import { TimezoneError } from "./errors.ts";

// The one place that extends dayjs, so every importer sees the same plugins.
dayjs.extend(utc);
dayjs.extend(timezone);

export { dayjs };

/**
 * Throws `TimezoneError` unless `tz` is an IANA zone the runtime knows. Checked up front because
 * Intl's own RangeError would otherwise surface deep inside a date computation.
 */
export function assertTimeZone(tz: string): void {
  if (typeof tz !== "string" || tz.trim() === "") throw new TimezoneError(String(tz));
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
  } catch {
    throw new TimezoneError(tz);
  }
}

/**
 * The calendar day `now` falls on in `tz`. All later range math works on these plain calendar days,
 * which keeps it immune to DST: a day is a day whatever its length in hours.
 *
 * @example todayIn(new Date("2026-11-21T20:30:00Z"), "Pacific/Auckland") // "2026-11-22"
 */
export function todayIn(now: Date, tz: string): IsoDay {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError("now must be a valid Date");
  assertTimeZone(tz);
  return dayjs(now).tz(tz).format("YYYY-MM-DD");
}
