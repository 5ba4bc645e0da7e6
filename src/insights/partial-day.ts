import type { IsoDay } from "../analytics/types.ts";
import { todayIn } from "./dayjs.ts";

/**
 * The first day whose counts may still grow at `now`: today in the reader's zone, or today in UTC
 * when that is earlier. The service's days are calendar days whose zone the contract does not state
 * (the emulator's are UTC), so east of UTC the reader's "today" may not have begun there yet and the
 * UTC day before it is still being filled. Marking both keeps a half-empty day from reading as a
 * quiet one, at the cost of sometimes calling a complete day partial.
 *
 * @example partialFrom(new Date("2026-11-21T20:30:00Z"), "Pacific/Auckland") // "2026-11-21"
 */
export function partialFrom(now: Date, tz: string): IsoDay {
  const local = todayIn(now, tz);
  const utc = todayIn(now, "UTC");
  // Day strings sort as dates; the earlier of the two.
  return [local, utc].sort()[0] as IsoDay;
}
