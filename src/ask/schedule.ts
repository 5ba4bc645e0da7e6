import { isAppError } from "../errors.ts";
import { conditionText, parseCondition } from "../subscriptions/conditions.ts";
import { readMonthDay } from "../subscriptions/month-day.ts";
import type { MonthDay } from "../subscriptions/types.ts";
import type { Sentence } from "./sentence.ts";
import type { AskSchedule, Weekday } from "./types.ts";
import { numberOf, WEEKDAYS } from "./vocabulary.ts";
import { zoneAt } from "./zones.ts";

/**
 * "every Monday at 9", "daily at 8:30", "tell me when violations go above 500": the schedule and
 * the condition of a proposed subscription or alert, in the subscription grammar's own terms (the
 * condition is its canonical text, checked by the same parser the slash command uses).
 */

const DAY_CODES: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const dayCode = (w: string | undefined): Weekday | undefined => {
  const i = WEEKDAYS.indexOf(w as never);
  return i >= 0 ? DAY_CODES[i] : undefined;
};

/** A time of day as said: `9`, `9am`, `9:30`, `17:00`, `5 pm`, `noon`, `midnight`. */
export function timeAt(s: Sentence, i: number): { len: number; time: string } | null {
  const w = s.free(i);
  if (w === "noon") return { len: 1, time: "12:00" };
  if (w === "midnight") return { len: 1, time: "00:00" };
  const m = /^(\d{1,2})(?::(\d{2}))?(am|pm|a\.m|p\.m)?$/.exec(w ?? "");
  if (!m) return null;
  let len = 1;
  let suffix = m[3]?.replace(".", "");
  const next = s.free(i + 1);
  if (!suffix && (next === "am" || next === "pm")) {
    suffix = next;
    len = 2;
  }
  let h = Number(m[1]);
  const min = m[2] === undefined ? 0 : Number(m[2]);
  if (min > 59 || h > 23 || (suffix && (h < 1 || h > 12))) return null;
  // A bare number is only a time right after "at" (the caller checks); "9" means 09:00.
  if (suffix === "pm" && h < 12) h += 12;
  if (suffix === "am" && h === 12) h = 0;
  return { len, time: `${String(h).padStart(2, "0")}:${String(min).padStart(2, "0")}` };
}

export interface SchedulePart {
  /** `monthly` also stands for quarterly (see `quarterly`). */
  frequency?: AskSchedule["frequency"] | "monthly";
  /** Said "every quarter", "once a quarter", "of each quarter": a quarterly schedule. */
  quarterly?: true;
  /** The day of a monthly or quarterly schedule ("on the 1st", "the first Monday", "the last working day"). */
  on?: MonthDay;
  /** "every 2 weeks", "every other day", "fortnightly": a period between runs that no schedule here has, as said. */
  every?: string;
  days: Weekday[];
  time?: string;
  /** Said with "every", "each", "on Mondays", "once a week" or a time of day: clearly a schedule. */
  strong: boolean;
  /** Frequency words said alone ("daily"), as typed: a schedule only if something is to be sent. */
  bare: string[];
  /** "twice a day|week": more often than one run per period, which no schedule here does. */
  twice?: true;
  /** The zone said with the time, IANA. */
  tz?: string;
}

/**
 * Claims every schedule word in the sentence and returns what they say (nothing when none).
 */
export function readSchedule(s: Sentence, sending = false): SchedulePart | null {
  const part: SchedulePart = { days: [], strong: false, bare: [] };
  // "except Fridays" first, so that its weekdays are not taken for the schedule's own; only in a
  // sentence about sending on a schedule ("violations except on Mondays" asks for something else).
  const except = sending || s.words.some((w) => SCHEDULE_CUES.has(w)) ? exceptedDays(s) : null;
  let found = except !== null;
  let monthly = false;
  for (let i = 0; i < s.length; i++) {
    const spaced = spacedAt(s, i);
    if (spaced) {
      part.every = spaced.said;
      s.claim(i, spaced.len);
      found = true;
      continue;
    }
    const every = s.match(i, "every|each");
    if (every === 1) {
      const k = i + 1;
      const w = s.free(k);
      const day = dayCode(w);
      if (day) {
        let at = dayList(s, k, part.days);
        part.frequency = "weekly";
        // "every Monday morning": the default time, said; "afternoon", "evening", "night" their own.
        const when = s.free(at)?.replace(/s$/, "");
        if (when !== undefined && Object.hasOwn(PART_OF_DAY, when)) {
          part.time ??= PART_OF_DAY[when];
          at++;
        }
        s.claim(i, at - i);
        found = true;
        continue;
      }
      const unit = s.match(
        k,
        "day|morning|afternoon|evening|night|weekday|weekdays|workday|week|hour|month|quarter",
      );
      if (unit === 1) {
        if (w === "weekday" || w === "weekdays" || w === "workday") {
          part.frequency = "weekly";
          part.days.push("mon", "tue", "wed", "thu", "fri");
        } else if (w === "week") part.frequency = "weekly";
        else if (w === "hour") part.frequency = "hourly";
        else if (w === "month" || w === "quarter") {
          part.frequency = "monthly";
          monthly = true;
          if (w === "quarter") part.quarterly = true;
        } else {
          part.frequency = "daily";
          if (w !== "day") part.time ??= PART_OF_DAY[w as string];
        }
        s.claim(i, 2);
        found = true;
        continue;
      }
    }
    const once = s.match(i, "once|twice a day|week|month|quarter");
    if (once === 3) {
      const unit = s.words[i + 2];
      part.frequency = unit === "day" ? "daily" : unit === "week" ? "weekly" : "monthly";
      if (part.frequency === "monthly") monthly = true;
      if (unit === "quarter") part.quarterly = true;
      if (s.words[i] === "twice") part.twice = true;
      s.claim(i, 3);
      found = true;
      continue;
    }
    const freq = s.match(i, "daily|weekly|hourly|monthly|weekdays");
    if (freq === 1) {
      const w = s.words[i] as string;
      if (w === "weekdays") {
        part.frequency = "weekly";
        part.days.push("mon", "tue", "wed", "thu", "fri");
      } else part.frequency = w as SchedulePart["frequency"];
      if (w === "monthly") monthly = true;
      part.bare.push(w);
      s.claim(i);
      found = true;
      continue;
    }
    // "on Mondays", "Tuesdays and Thursdays" (plural as typed): a weekday schedule.
    // An optional slot matches nothing as 0 words: `match` gives -1 only for a missing required word.
    const on = s.match(i, "on?");
    const plural = dayCode(s.free(i + on)) && /s$/.test(s.typed[i + on] ?? "") ? 1 : 0;
    if (plural) {
      part.frequency = "weekly";
      const end = dayList(s, i + on, part.days);
      s.claim(i, end - i);
      i = end - 1;
      found = true;
      continue;
    }
    const at = s.free(i) === "at" ? 1 : 0;
    const t = timeAt(s, i + at);
    // "since 9am", "after 5pm": a part of a day asked about, not when to send (the periods refuse it).
    const bound = at === 0 && TIME_BOUNDS.has(s.free(i - 1) ?? "");
    if (t && !bound && (at === 1 || /[a-z:]/.test(s.words[i] ?? ""))) {
      part.time = t.time;
      s.claim(i, at + t.len);
      found = true;
      const zone = zoneAt(s, i + at + t.len, true);
      if (zone) {
        part.tz = zone.tz;
        s.claim(i + at + t.len, zone.len);
      }
    }
  }
  // "every Monday at 9, London time": the zone said apart from the time.
  if (found)
    for (let i = 0; i < s.length && part.tz === undefined; i++) {
      const zone = zoneAt(s, i, false);
      if (zone) {
        part.tz = zone.tz;
        s.claim(i, zone.len);
      }
    }
  // "on the 1st (of the month)", before or after "monthly": the day of a monthly schedule.
  if (monthly)
    for (let i = 0; i < s.length; i++) {
      const day = monthDayAt(s, i);
      if (!day) continue;
      s.claim(i, day.len);
      part.on ??= day.on;
      if (day.quarter) part.quarterly = true;
    }
  // Once something is to be sent on a schedule, weekdays said one by one ("on Monday and Wednesday"),
  // as a span ("Mon-Fri", "Monday to Friday") or left out ("except Fridays") are its days, not periods.
  if (found || sending) found = weekdayWords(s, part, found) || found;
  if (except && part.frequency === "hourly")
    part.every = `${part.bare.includes("hourly") ? "hourly" : "every hour"} ${except.said}`;
  else if (except) {
    const base = part.days.length > 0 ? part.days : DAY_CODES;
    part.days = base.filter((d) => !except.days.has(d));
    part.frequency = "weekly";
  }
  // Monthly said anywhere ("a monthly digest every Monday", "the first Monday of every month") makes
  // the schedule monthly, whatever weekdays were said with it (a weekday without which one is asked).
  if (monthly) part.frequency = "monthly";
  if (found) part.days = [...new Set(part.days)];
  part.strong = found && (part.days.length > 0 || part.time !== undefined || part.bare.length === 0);
  return found ? part : null;
}

const SCHEDULE_CUES: ReadonlySet<string> = new Set([
  "every",
  "each",
  "daily",
  "weekly",
  "hourly",
  "weekday",
  "weekdays",
]);

/** The time a part of the day stands for in a schedule ("every morning" is the command's default). */
const PART_OF_DAY: Readonly<Record<string, string>> = {
  morning: "09:00",
  afternoon: "14:00",
  evening: "18:00",
  night: "21:00",
};

/** Words that make a following time a bound of the period asked about. */
export const TIME_BOUNDS: ReadonlySet<string> = new Set([
  "since",
  "after",
  "before",
  "until",
  "till",
  "from",
]);

const SPACED_UNITS = "days|weeks|months|hours|day|week|month|hour";

/**
 * "every 2 weeks", "every other day", "every fortnight", "biweekly", "bi-weekly", "fortnightly":
 * runs further apart than one unit, which no schedule here keeps; read whole so the answer can say so.
 */
function spacedAt(s: Sentence, i: number): { len: number; said: string } | null {
  const one = s.match(i, "biweekly|fortnightly|bimonthly");
  if (one === 1) return { len: 1, said: s.typed[i] as string };
  const hyphen = s.match(i, "bi - weekly|monthly");
  if (hyphen === 3) return { len: 3, said: `bi-${s.words[i + 2]}` };
  const fortnight = s.match(i, "every|each fortnight");
  if (fortnight === 2) return { len: 2, said: "every fortnight" };
  if (s.match(i, "every|each") !== 1) return null;
  const other = s.match(i + 1, "other|second|alternate");
  const unit = other === 1 && (s.match(i + 2, SPACED_UNITS) === 1 || dayCode(s.free(i + 2)) !== undefined);
  if (unit) return { len: 3, said: `every ${s.typed[i + 1]} ${s.typed[i + 2]}` };
  const n = numberOf(s.free(i + 1));
  if (n !== undefined && n >= 2 && s.match(i + 2, SPACED_UNITS) === 1)
    return { len: 3, said: `every ${n} ${s.words[i + 2]}` };
  return null;
}

/**
 * Claims the weekdays of a schedule (lists, spans) into `part`; true when there were some.
 * One weekday alone only when the schedule is `established` by other words: "send me Monday's
 * numbers" asks for that day.
 */
function weekdayWords(s: Sentence, part: SchedulePart, established: boolean): boolean {
  let found = false;
  for (let i = 0; i < s.length; i++) {
    const lead = s.match(i, "on|from?");
    if (!dayCode(s.free(i + lead))) continue;
    const listed: Weekday[] = [];
    const end = dayList(s, i + lead, listed);
    if (listed.length < 2 && !established) continue;
    part.days.push(...listed);
    s.claim(i, end - i);
    part.frequency = "weekly";
    found = true;
  }
  return found;
}

/** "except Fridays", "excluding weekends", "but not on Mondays": the days left out, claimed, and the words as said. */
function exceptedDays(s: Sentence): { days: Set<Weekday>; said: string } | null {
  const days = new Set<Weekday>();
  const said: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const but = Math.max(s.match(i, "except|excluding|exclude on|for?"), s.match(i, "but not on|for?"));
    if (but <= 0) continue;
    const weekend = s.match(i + but, "the? weekend|weekends");
    let end = i + but + Math.max(0, weekend);
    if (weekend > 0) days.add("sat").add("sun");
    else {
      const listed: Weekday[] = [];
      end = dayList(s, i + but, listed);
      if (listed.length === 0) continue;
      for (const d of listed) days.add(d);
    }
    said.push(s.typed.slice(i, end).join(" "));
    s.claim(i, end - i);
  }
  return days.size > 0 ? { days, said: said.join(" ") } : null;
}

/**
 * Weekdays in a row from `k` ("Monday and Thursday", "Tue Thu", spans "Mon-Fri", "Monday to Friday"),
 * added to `days`; returns where they end.
 */
function dayList(s: Sentence, k: number, days: Weekday[]): number {
  let at = k;
  for (let first = dayCode(s.free(at)); first; first = dayCode(s.free(at))) {
    const last = s.match(at + 1, "-|to|through|thru|till|until") === 1 ? dayCode(s.free(at + 2)) : undefined;
    if (last) {
      for (let d = DAY_CODES.indexOf(first); ; d = (d + 1) % 7) {
        days.push(DAY_CODES[d] as Weekday);
        if (DAY_CODES[d] === last) break;
      }
      at += 3;
    } else {
      days.push(first);
      at++;
    }
    if (s.match(at, "and|or|&|+") === 1 && dayCode(s.free(at + 1))) at++;
  }
  return at;
}

/**
 * "on the 1st", "on the first of the month", "the 15th of each month", "the first Monday", "the last
 * working day of every quarter": the day of a monthly schedule, read as the slash command reads it.
 */
function monthDayAt(s: Sentence, i: number): { len: number; on: MonthDay; quarter: boolean } | null {
  const lead = s.match(i, "on? the?");
  const words = [0, 1, 2].map((k) => s.free(i + lead + k) ?? "");
  const w = words[0] as string;
  // "on the first of the month" is the 1st; a bare number is not a day here ("top 5").
  const read =
    w === "first" && lead > 0 && words[1] === "of" ? { on: DAY_ONE, len: 1 } : readMonthDay(words, 0);
  if (!read || /^\d+$/.test(w)) return null;
  // "last Friday", "last day" without "on"/"the" is a period asked about, not a schedule's day.
  if (lead === 0 && w === "last") return null;
  const at = i + lead + read.len;
  const of = s.match(at, "of the|each|every month|quarter");
  return {
    len: lead + read.len + (of === 3 ? 3 : 0),
    on: read.on,
    quarter: of === 3 && s.words[at + 2] === "quarter",
  };
}

const DAY_ONE: MonthDay = { kind: "day", day: 1 };

/**
 * What to answer a monthly or quarterly schedule whose day is a weekday said without which one ("a
 * monthly digest every Monday"): which of them, with an example.
 */
export function whichWeekdayRefusal(part: SchedulePart): string {
  const kind = part.quarterly ? "quarterly" : "monthly";
  const day = part.days[0] ?? "mon";
  const name = WEEKDAYS[DAY_CODES.indexOf(day)] ?? day;
  const title = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return `A ${kind} digest runs on one day of the ${part.quarterly ? "quarter" : "month"}: say which ${title} (first to fourth, or last), e.g. “the first ${title} of every ${part.quarterly ? "quarter" : "month"}”.`;
}

/** Monday to Friday, the days of a `weekdays` schedule. */
const WORKWEEK: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri"];

const isWorkweek = (days: readonly Weekday[]) =>
  days.length === WORKWEEK.length && WORKWEEK.every((d) => days.includes(d));

/**
 * The schedule a proposal uses: what was said, the slash command's defaults for the rest (a monthly or
 * quarterly one runs on the 1st when no day is said). Monday to Friday, however said ("every
 * weekday", "Mon-Fri", "except weekends"), is the `weekdays` schedule.
 */
export function scheduleOf(part: SchedulePart | null, mode: "digest" | "alert"): AskSchedule {
  const time = part?.time ?? (mode === "alert" ? "00:00" : "09:00");
  const tz = part?.tz ? { tz: part.tz } : {};
  if (part?.frequency === "monthly")
    return {
      frequency: part.quarterly ? "quarterly" : "monthly",
      days: [],
      on: part.on ?? DAY_ONE,
      time,
      ...tz,
    };
  const days = part?.days ?? [];
  const f = part?.frequency ?? (days.length > 0 ? "weekly" : mode === "alert" ? "hourly" : "weekly");
  if (f !== "weekly") return { frequency: f, days: [], time, ...tz };
  const weekly = days.length > 0 ? days : (["mon"] as Weekday[]);
  if (isWorkweek(weekly)) return { frequency: "weekdays", days: [], time, ...tz };
  return { frequency: "weekly", days: weekly, time, ...tz };
}

const CONDITION_METRICS: Record<string, string> = {
  violations: "violations",
  violation: "violations",
  findings: "findings",
  finding: "findings",
  vulnerabilities: "findings",
  fixes: "fixes",
  fixed: "fixes",
};

/** A number, a percentage (`10%`, `10 %`, `10 percent`), at `i`. */
function amountAt(s: Sentence, i: number): { len: number; text: string } | null {
  const w = s.free(i);
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(w ?? "");
  if (pct) return { len: 1, text: `${pct[1]}%` };
  const n = numberOf(w);
  if (n === undefined || w === "a" || w === "an") return null;
  if (s.match(i + 1, "%|percent") === 1) return { len: 2, text: `${n}%` };
  return { len: 1, text: String(n) };
}

const ABOVE = [
  "go|goes|are|is|get|gets|rise|rises|climb|climbs|be above|over|past|beyond",
  "above|over|past|beyond",
  "exceed|exceeds|passes|pass|tops|top",
  "are|is|get|gets? become|becomes|becoming? more|greater|higher than",
  ">|>=",
];
const BELOW = [
  "drop|drops|fall|falls|go|goes|are|is|get|gets|be|dip|dips below|under|beneath",
  "below|under|beneath",
  "are|is|get|gets? become|becomes|becoming? less|fewer|lower than",
  "<|<=",
];
const UP = [
  "go|goes|are|is|be up by?",
  "rise|rises|increase|increases|jump|jumps|grow|grows|spike|spikes|climb|climbs by?",
];
const DOWN = [
  "go|goes|are|is|be down by?",
  "drop|drops|fall|falls|decrease|decreases|shrink|shrinks|dip|dips by?",
];
/**
 * "rise by at least 10%": the change conditions fire at their amount itself, so "at least" is what they
 * say; "more than 10%" is not, and is refused with the words that are.
 */
const AT_LEAST = "at least";
const MORE_THAN = ["more than", "over"];
const ANY = ["change|changes|move|moves by?"];
/** "violations double": up by 100 %. */
const DOUBLE = "double|doubles";
const IN_A_ROW = "weeks|days|periods|times|runs|hours in a row";

/** Words that start a subject said inside a condition ("violations in payments go above 200"). */
const SUBJECT_LEAD = new Set(["in", "for", "on", "across", "from", "of", "at"]);

/** "unusual", "unusually high": the alert grammar's unusual-day conditions. */
const UNUSUAL =
  "are|is|get|gets|go|goes|look|looks|seem|seems|become|becomes? unusual|abnormal|anomalous|atypical";
const UNUSUALLY = "are|is|get|gets|go|goes|look|looks|seem|seems? unusually|abnormally high|low";

export type ConditionHit =
  | {
      len: number;
      condition: string;
      /** Words inside the span that are not the condition's (a subject), left for the names. */
      hole?: { at: number; n: number };
    }
  | { len: number; problem: string };

/**
 * The condition said from `i` ("violations go above 500", "findings rise by 20%", "anything
 * changes", "violations in payments exceed 200"), as the subscription grammar's canonical text, or
 * why it is not one.
 */
export function conditionAt(s: Sentence, i: number): ConditionHit | null {
  const anything = s.match(i, "anything|something|it|the? numbers? change|changes|moves|move");
  if (anything >= 2) return { len: anything, condition: "when changed" };
  const lead = s.match(i, "the|our|total?");
  const metricWord = s.free(i + lead);
  const metric = CONDITION_METRICS[metricWord ?? ""];
  if (!metric) {
    if (s.match(i + lead, "fix|merged rate|violations") === 2)
      return {
        len: lead + 1,
        problem: "Alerts can watch findings, violations or fixes; not the fix rate or merged violations.",
      };
    return null;
  }
  const at = i + lead + 1;
  const direct = conditionAfter(s, at, metric);
  if (direct)
    return direct.problem ? { len: at - i + direct.len, problem: direct.problem } : hitOf(i, at, direct);
  // A subject between the number and what it does: up to three words after "in", "for", ….
  if (!SUBJECT_LEAD.has(s.free(at) ?? "")) return null;
  for (let n = 2; n <= 4; n++) {
    if (s.free(at + n - 1) === undefined) return null;
    const later = conditionAfter(s, at + n, metric);
    if (later?.problem) return { len: at + n - i + later.len, problem: later.problem };
    if (later) return { ...hitOf(i, at + n, later), hole: { at, n } };
  }
  return null;
}

interface After {
  len: number;
  text?: string;
  problem?: string;
}

/** The condition from `i` whose words after the metric start at `at`. */
function hitOf(i: number, at: number, found: After): ConditionHit {
  return canonical(at - i + found.len, found.text as string);
}

/** What is said of a metric from `at`: a threshold, a change, a streak, an unusual day. */
function conditionAfter(s: Sentence, at: number, metric: string): After | null {
  const tryAll = (patterns: string[], verb: string): After | null => {
    for (const p of patterns) {
      let len = s.match(at, p);
      if (len <= 0) continue;
      if (verb !== ">" && verb !== "<") {
        len += Math.max(0, s.match(at + len, AT_LEAST));
        const more = Math.max(...MORE_THAN.map((q) => s.match(at + len, q)));
        const over = more > 0 ? amountAt(s, at + len + more) : null;
        if (over)
          return {
            len: len + more + over.len,
            problem: `An alert on a change fires at its amount or more: say “by at least ${over.text}”.`,
          };
      }
      const amount = amountAt(s, at + len);
      if (!amount) {
        // "violations > lots": a threshold that is not a number is refused as one, not skipped.
        const next = s.typed[at + len];
        if ((verb === ">" || verb === "<") && next !== undefined && /^[a-z]+$/.test(next))
          return { len: len + 1, problem: `“${next}” is not a number: say the threshold, e.g. above 500.` };
        continue;
      }
      const row = verb === "up" ? s.match(at + len + amount.len, IN_A_ROW) : -1;
      if (row > 0 && !amount.text.endsWith("%"))
        return { len: len + amount.len + row, text: `${metric} rose ${amount.text}` };
      if (verb === ">" || verb === "<") {
        if (amount.text.endsWith("%")) return null;
        return { len: len + amount.len, text: `${metric} ${verb} ${amount.text}` };
      }
      return { len: len + amount.len, text: `${metric} ${verb} ${amount.text}` };
    }
    return null;
  };
  // "higher than usual", "lower than normal": the unusual-day conditions in other words (before the
  // thresholds, whose "are higher than" would take "usual" for a number that is not one).
  const usual = s.match(at, "are|is|get|gets|go|goes|look|looks|seem|seems? higher|lower than usual|normal");
  if (usual > 0)
    return {
      len: usual,
      text: `${metric} unusually ${s.words[at + usual - 3] === "higher" ? "high" : "low"}`,
    };
  const found =
    tryAll(ABOVE, ">") ??
    tryAll(BELOW, "<") ??
    tryAll(UP, "up") ??
    tryAll(DOWN, "down") ??
    tryAll(ANY, "changed");
  if (found) return found;
  const double = s.match(at, DOUBLE);
  if (double > 0) return { len: double, text: `${metric} up 100%` };
  const unusually = s.match(at, UNUSUALLY);
  if (unusually > 0) return { len: unusually, text: `${metric} unusually ${s.words[at + unusually - 1]}` };
  const unusual = s.match(at, UNUSUAL);
  if (unusual > 0) return { len: unusual, text: `${metric} unusual` };
  // "violations rise 3 weeks in a row" without "by".
  const rising = s.match(at, "rise|rises|rising|increase|increases|keep|keeps rising?");
  const n = rising > 0 ? numberOf(s.free(at + rising)) : undefined;
  const row = n !== undefined ? s.match(at + rising + 1, IN_A_ROW) : -1;
  if (n !== undefined && row > 0) return { len: rising + 1 + row, text: `${metric} rose ${n}` };
  return null;
}

/**
 * "violations go up", "findings jump", "fixes drop": a change said without how much, at `i`
 * (after an optional "the"/"our"); the length of the words, or 0.
 */
export function vagueChangeAt(s: Sentence, i: number): number {
  const lead = s.match(i, "the|our|total?");
  if (!CONDITION_METRICS[s.free(i + lead) ?? ""]) return 0;
  for (const p of [...UP, ...DOWN, ...ANY]) {
    const len = s.match(i + lead + 1, p);
    if (len > 0) return lead + 1 + len;
  }
  return 0;
}

function canonical(len: number, text: string): ConditionHit {
  try {
    return { len, condition: conditionText(parseCondition(text)) };
  } catch (err) {
    const message = isAppError(err)
      ? (err.message.split("\n")[0] ?? err.message)
      : "That is not a condition.";
    return { len, problem: message };
  }
}
