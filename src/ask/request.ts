import { monthDayCommand } from "../subscriptions/month-day.ts";
import type { AskReading } from "./types.ts";

/**
 * The slash command a reading stands for, when the command can say it: the same range and filters,
 * the same subscription. Answers show it, so people learn the short form, and tests check that
 * the command's own parser builds the same request from it. Asset groups, named comparisons and
 * metrics are a question's own: a reading that needs them has no slash form.
 */
export function slashText(r: AskReading): string | undefined {
  if (r.problem || r.subjects.groups.length > 0) return undefined;
  const filters = [
    ...r.subjects.assets.map((a) => `asset:"${a.displayValue.replace(/"/g, "")}"`),
    ...r.subjects.scanners.map((s) => `scanner:${s.value}`),
  ];
  switch (r.intent) {
    case "digest":
      if (r.comparison && r.comparison.how !== "previous") return undefined;
      return [r.range.spec, ...filters].join(" ");
    case "export":
      return ["export", r.range.spec, ...filters].join(" ");
    case "subscribe":
    case "alert": {
      const s = r.schedule;
      if (!s) return undefined;
      const head = r.intent === "alert" ? "alert me" : "subscribe me";
      const when = r.condition ? [r.condition] : [];
      const time = s.frequency === "hourly" ? [] : [s.time, ...(s.tz ? [s.tz] : [])];
      const day =
        s.on && (s.frequency === "monthly" || s.frequency === "quarterly") ? [monthDayCommand(s.on)] : [];
      return [head, s.frequency, ...s.days, ...day, ...time, r.range.spec, ...filters, ...when].join(" ");
    }
    default:
      return undefined;
  }
}
