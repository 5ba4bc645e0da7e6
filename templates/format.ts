import type { IsoDay } from "../src/analytics/types.ts";
import { directionMark } from "../src/insights/format.ts";
import type { Delta } from "../src/insights/types.ts";

/**
 * Wording the templates add to the core's number formatting (src/insights/format.ts, re-exported
 * here so templates have one place to import from): the good/bad mark, days and Slack dates.
 * Dates are computed in UTC from ISO strings, never from the clock.
 */
export { formatCount, formatPct, formatRate, formatSigned } from "../src/insights/format.ts";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * Direction arrow plus a dot for whether the move is good news, so the meaning never rests on
 * the arrow alone: `🔴 ▲` (more violations), `🟢 ▼` (fewer), `⚪ ■` (flat).
 */
export function changeMark(d: Pick<Delta, "direction" | "sentiment">): string {
  const dot = d.sentiment === "good" ? "🟢" : d.sentiment === "bad" ? "🔴" : "⚪";
  return `${dot} ${directionMark(d)}`;
}

/** `2026-11-18` → `Wed Nov 18`; an unreadable day is returned as given. */
export function formatDay(day: IsoDay): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(date.getTime())) return day;
  return `${WEEKDAYS[date.getUTCDay()]} ${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
}

/** `2026-11-18` → `Nov 18` (`withYear`: `Nov 2026`); an unreadable day is returned as given. */
export function formatMonthDay(day: IsoDay, withYear = false): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month) return day;
  return withYear ? `${month} ${m[1]}` : `${month} ${Number(m[3])}`;
}

/**
 * Slack renders `<!date^…>` in each reader's own timezone; the fallback (UTC) is for clients that
 * cannot. Returns null for an unreadable instant so the caller can show it as text.
 */
export function slackDate(isoInstant: string): string | null {
  const ms = Date.parse(isoInstant);
  if (Number.isNaN(ms)) return null;
  const fallback = `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return `<!date^${Math.floor(ms / 1000)}^{date_short_pretty} {time}|${fallback}>`;
}
