import type { IsoDay } from "../analytics/types.ts";

// Fixed English names rather than dayjs locales: dayjs.locale() is process-global, and a label
// should not change because some other module switched it.
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function parts(day: IsoDay): { year: string; monthDay: string } {
  const month = MONTHS[Number(day.slice(5, 7)) - 1] ?? day.slice(5, 7);
  return { year: String(Number(day.slice(0, 4))), monthDay: `${month} ${Number(day.slice(8, 10))}` };
}

/**
 * Human label of an inclusive day range. The year is shown once when both ends share it.
 *
 * @example
 * formatRangeLabel("2026-11-15", "2026-11-21") // "Nov 15 – Nov 21, 2026"
 * formatRangeLabel("2026-12-28", "2027-01-03") // "Dec 28, 2026 – Jan 3, 2027"
 * formatRangeLabel("2026-11-15", "2026-11-15") // "Nov 15, 2026"
 */
export function formatRangeLabel(from: IsoDay, to: IsoDay): string {
  const a = parts(from);
  const b = parts(to);
  if (from === to) return `${a.monthDay}, ${a.year}`;
  if (a.year === b.year) return `${a.monthDay} – ${b.monthDay}, ${b.year}`;
  return `${a.monthDay}, ${a.year} – ${b.monthDay}, ${b.year}`;
}
