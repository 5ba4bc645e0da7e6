import type { IsoDay } from "../analytics/types.ts";
import { isValidIsoDay } from "./days.ts";

// The contract says `YYYY-MM-DDT00:00:00` without a zone; a trailing `Z` or `.000` is the same
// midnight written by a different serializer, so it is accepted. Any other time of day is not a
// day marker we can place safely.
const DAY_STAMP = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0{1,6})?Z?$/;

// Every reply repeats the same few hundred days (each slice of a digest's drivers, two lists each):
// answers are remembered rather than matched and checked again, a bounded number of them.
const dayOfStamp = new Map<string, IsoDay | null>();

/**
 * The day of a service time stamp, or null when it is malformed or an impossible date.
 *
 * @example dayOfTimeStamp("2026-11-15T00:00:00") // "2026-11-15"
 * @example dayOfTimeStamp("2026-11-15T05:00:00") // null
 */
export function dayOfTimeStamp(stamp: unknown): IsoDay | null {
  if (typeof stamp !== "string") return null;
  const known = dayOfStamp.get(stamp);
  if (known !== undefined) return known;
  const m = DAY_STAMP.exec(stamp);
  const day = m && isValidIsoDay(m[1] as string) ? (m[1] as IsoDay) : null;
  if (dayOfStamp.size >= 4_096) dayOfStamp.clear();
  dayOfStamp.set(stamp, day);
  return day;
}
