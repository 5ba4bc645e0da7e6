/** `YYYY-MM-DDT00:00:00`, tolerating fractional zeros and an explicit UTC zone; normalized to the plain form. */
const DAY_START = /^(\d{4})-(\d{2})-(\d{2})T00:00:00(?:\.0{1,9})?(?:Z|[+-]00:?00)?$/;

/**
 * A time stamp in its plain form, or null. Replies repeat the same few hundred days (every slice,
 * two lists each), so answers are remembered: checking a calendar day builds a Date.
 */
const stamps = new Map<string, string | null>();
export function dayStart(s: string): string | null {
  let known = stamps.get(s);
  if (known === undefined) {
    known = DAY_START.test(s) && isCalendarDay(s.slice(0, 10)) ? `${s.slice(0, 10)}T00:00:00` : null;
    if (stamps.size >= 4_096) stamps.clear();
    stamps.set(s, known);
  }
  return known;
}

/** True for a real `YYYY-MM-DD` day (rejects 2026-02-30). */
export function isCalendarDay(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === day;
}
