import type { IsoDay } from "../analytics/types.ts";

/**
 * Calendar-day arithmetic on `YYYY-MM-DD` strings. Days are counted as whole epoch days in UTC so
 * that no local clock (and no DST jump) can shift them; the timezone only decides which day "today" is.
 */

const MS_PER_DAY = 86_400_000;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `text` looks like `YYYY-MM-DD` (it may still be an impossible date such as 2026-02-30). */
export function isIsoDayShape(text: string): boolean {
  return ISO_DAY.test(text);
}

// Digests turn the same few hundred day strings into numbers and back, thousands of times per
// delivery (every slice of the drivers walks a year of days): both directions are remembered.
// Bounded, because day strings can come from what people type.
const REMEMBERED = 20_000;
const epochOf = new Map<string, number | null>();
const dayOf = new Map<number, IsoDay>();

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= REMEMBERED) map.clear();
  map.set(key, value);
  return value;
}

/** The epoch day of a real `YYYY-MM-DD` date, or null for a malformed or impossible one. */
export function toEpochDay(day: string): number | null {
  const known = epochOf.get(day);
  return known !== undefined ? known : remember(epochOf, day, computeEpochDay(day));
}

function computeEpochDay(day: string): number | null {
  const m = ISO_DAY.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return Math.round(date.getTime() / MS_PER_DAY);
}

/** The `YYYY-MM-DD` of an epoch day. */
export function fromEpochDay(e: number): IsoDay {
  return dayOf.get(e) ?? remember(dayOf, e, computeDay(e));
}

function computeDay(e: number): IsoDay {
  const date = new Date(e * MS_PER_DAY);
  const y = String(date.getUTCFullYear()).padStart(4, "0");
  const m = String(date.getUTCMonth() + 1).padStart(2, "0");
  const d = String(date.getUTCDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}

/** True for a real calendar date in `YYYY-MM-DD` form. */
export function isValidIsoDay(day: string): boolean {
  return toEpochDay(day) !== null;
}

/** The epoch day of a calendar day that must be one (a TypeError otherwise: days here come checked). */
export function epochDay(day: IsoDay): number {
  const e = toEpochDay(day);
  if (e === null) throw new TypeError(`not a calendar day: ${day}`);
  return e;
}

/** `day` moved by `n` days (negative goes back). */
export function addDays(day: IsoDay, n: number): IsoDay {
  return fromEpochDay(epochDay(day) + n);
}

/** Number of days from `from` to `to`, both included (1 for the same day, ≤ 0 when inverted). */
export function daysInclusive(from: IsoDay, to: IsoDay): number {
  return epochDay(to) - epochDay(from) + 1;
}

/** Every day from `from` to `to` inclusive, ascending; empty when inverted. */
export function enumerateDays(from: IsoDay, to: IsoDay): IsoDay[] {
  const start = epochDay(from);
  const end = epochDay(to);
  const out: IsoDay[] = [];
  for (let e = start; e <= end; e++) out.push(fromEpochDay(e));
  return out;
}

/** ISO weekday: 1 = Monday … 7 = Sunday. */
export function isoWeekday(day: IsoDay): number {
  // Epoch day 0 (1970-01-01) was a Thursday, ISO weekday 4.
  return ((((epochDay(day) + 3) % 7) + 7) % 7) + 1;
}

/** The first day of `day`'s month. */
export function startOfMonth(day: IsoDay): IsoDay {
  return `${day.slice(0, 8)}01`;
}

/** The first day of `day`'s calendar quarter (January, April, July or October 1st). */
export function startOfQuarter(day: IsoDay): IsoDay {
  const month = Math.floor((Number(day.slice(5, 7)) - 1) / 3) * 3 + 1;
  return `${day.slice(0, 5)}${String(month).padStart(2, "0")}-01`;
}
