/**
 * Calendar-day arithmetic on `YYYY-MM-DD` strings in UTC. Days are also handled as integers
 * (days since 1970-01-01) because the data model hashes them and loops over ranges.
 */

const DAY_MS = 86_400_000;
const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day in `YYYY-MM-DD` form (rejects 2026-02-30, "yesterday", 2026-2-3). */
export function isValidDay(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const m = DAY_SHAPE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  // Date.UTC rolls Feb 30 over into March; a round trip catches it.
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Days since 1970-01-01 (UTC) of a valid day string. */
export function dayNumber(day: string): number {
  return Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
}

/** `day` moved by `delta` days: whole days of UTC milliseconds, which have no DST to skip. */
export function addDays(day: string, delta: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + delta * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, inclusive, ascending; none when inverted. */
export function daysInRange(from: string, to: string): string[] {
  const first = dayNumber(from);
  const count = dayNumber(to) - first + 1;
  const out: string[] = [];
  // One Date stepped a day at a time: a reply's days are thousands of these in a storm.
  const date = new Date(first * DAY_MS);
  for (let i = 0; i < count; i++) {
    out.push(isoDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()));
    date.setUTCDate(date.getUTCDate() + 1);
  }
  return out;
}

function isoDay(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${m < 10 ? "0" : ""}${m}-${d < 10 ? "0" : ""}${d}`;
}

/** The reply's timestamp form: ISO date-time at midnight, no zone. */
export function timeStampOf(day: string): string {
  return `${day}T00:00:00`;
}

/** Today in UTC as `YYYY-MM-DD`; the default clock of the emulator. */
export function utcToday(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}
