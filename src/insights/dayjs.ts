import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone.js";
import utc from "dayjs/plugin/utc.js";
import type { IsoDay } from "../analytics/types.ts";
import { TimezoneError } from "./range-errors.ts";

// The one place that extends dayjs, so every importer sees the same plugins.
dayjs.extend(utc);
dayjs.extend(timezone);

export { dayjs };

/**
 * One formatter per zone, built on first use: an Intl constructor costs tens to hundreds of µs, and
 * every digest resolves its range in a zone (the bench measured ~0.15–0.6 ms per command before).
 * Only zones the runtime accepted are kept, so the map is bounded by the IANA list.
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(tz: string): Intl.DateTimeFormat {
  const cached = dayFormats.get(tz);
  if (cached) return cached;
  if (typeof tz !== "string" || tz.trim() === "") throw new TimezoneError(String(tz));
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      calendar: "gregory",
      numberingSystem: "latn",
    });
  } catch {
    throw new TimezoneError(tz);
  }
  dayFormats.set(tz, format);
  return format;
}

/**
 * Throws `TimezoneError` unless `tz` is an IANA zone the runtime knows. Checked up front because
 * Intl's own RangeError would otherwise surface deep inside a date computation.
 */
export function assertTimeZone(tz: string): void {
  dayFormat(tz);
}

/** From here on (1973) no zone has an offset with seconds in it. */
const WHOLE_MINUTE_OFFSETS = Date.UTC(1973, 0, 1);
/** Per zone, the last minute asked and its day: one entry per zone a process has met. */
const lastDay = new Map<string, { minute: number; day: IsoDay }>();

/**
 * The calendar day `now` falls on in `tz`. All later range math works on these plain calendar days,
 * which keeps it immune to DST: a day is a day whatever its length in hours.
 *
 * @example todayIn(new Date("2026-11-21T20:30:00Z"), "Pacific/Auckland") // "2026-11-22"
 */
export function todayIn(now: Date, tz: string): IsoDay {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError("now must be a valid Date");
  const t = now.getTime();
  // Since Monrovia's change of May 1972 every zone's offset is a whole number of minutes, so a zone's
  // midnight falls on a minute of UTC and the day is the same for all of that minute: asked for every
  // digest, timer and click, it is worked out once per zone and minute (Intl's formatToParts is the cost).
  if (t < WHOLE_MINUTE_OFFSETS) return dayOf(now, tz);
  const minute = Math.floor(t / 60_000);
  const known = lastDay.get(tz);
  if (known?.minute === minute) return known.day;
  const day = dayOf(now, tz);
  lastDay.set(tz, { minute, day });
  return day;
}

function dayOf(now: Date, tz: string): IsoDay {
  let year = "";
  let month = "";
  let day = "";
  for (const part of dayFormat(tz).formatToParts(now)) {
    if (part.type === "year") year = part.value;
    else if (part.type === "month") month = part.value;
    else if (part.type === "day") day = part.value;
  }
  return `${year.padStart(4, "0")}-${month}-${day}`;
}
