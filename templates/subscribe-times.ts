import { calendarWords } from "../src/subscriptions/schedule.ts";
import type { Schedule } from "../src/subscriptions/types.ts";

/**
 * Wording of schedules and run times for the subscription surfaces (command replies, the modal's
 * preview, App Home). Pure: instants and zones come in, text goes out; no clock.
 */

const formats = new Map<string, { day: Intl.DateTimeFormat; zones: Intl.DateTimeFormat[] }>();

function format(tz: string) {
  let f = formats.get(tz);
  if (!f) {
    f = {
      // en-GB: day before month and a 24-hour clock, the way the schedule itself is written.
      day: new Intl.DateTimeFormat("en-GB", {
        timeZone: tz,
        weekday: "short",
        day: "numeric",
        month: "short",
        year: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }),
      // en-GB names European zones (CET), en-US American ones (EDT); each says GMT+1 for the other's.
      zones: ["en-GB", "en-US"].map(
        (locale) => new Intl.DateTimeFormat(locale, { timeZone: tz, timeZoneName: "short" }),
      ),
    };
    formats.set(tz, f);
  }
  return f;
}

/**
 * One run time as the subscription's zone sees it, with the zone's abbreviation so a DST change
 * shows (CET → CEST). An unknown zone falls back to UTC rather than throwing in a template.
 *
 * @example runTime(new Date("2026-11-02T08:00:00Z"), "Europe/Berlin") // "Mon 2 Nov 2026, 09:00 CET"
 */
export function runTime(at: Date, tz: string): string {
  let f: ReturnType<typeof format>;
  try {
    f = format(tz);
  } catch {
    f = format("UTC");
  }
  const names = f.zones.map((z) => z.formatToParts(at).find((p) => p.type === "timeZoneName")?.value ?? "");
  const zone = names.find((n) => n !== "" && !/^(GMT|UTC)[+-]/.test(n)) ?? names[0] ?? tz;
  return `${f.day.format(at).replace(/^(\w{3}),/, "$1")} ${zone}`;
}

/** Bulleted run times, one per line. */
export function runTimeLines(runs: readonly Date[], tz: string): string {
  return runs.map((r) => `• ${runTime(r, tz)}`).join("\n");
}

const DAY_LABEL: Record<string, string> = {
  mon: "Mon",
  tue: "Tue",
  wed: "Wed",
  thu: "Thu",
  fri: "Fri",
  sat: "Sat",
  sun: "Sun",
};

/**
 * A schedule in words without its zone (rows show the zone apart).
 *
 * @example scheduleWords({ kind: "weekly", days: ["mon", "thu"] }, "09:00") // "Weekly on Mon, Thu at 09:00"
 * @example scheduleWords({ kind: "monthly", on: { kind: "day", day: 1 } }, "09:00") // "Monthly on the 1st at 09:00"
 */
export function scheduleWords(schedule: Schedule, time: string): string {
  switch (schedule.kind) {
    case "hourly":
      return `Hourly at :${time.slice(3, 5)}`;
    case "weekly":
      return `Weekly on ${schedule.days.map((d) => DAY_LABEL[d] ?? d).join(", ")} at ${time}`;
    case "cron":
      return `Cron \`${schedule.expression.replace(/`/g, "")}\``;
    default:
      return `${calendarWords(schedule)} at ${time}`;
  }
}
