import { readMonthDay } from "../../subscriptions/month-day.ts";
import type { MonthDay } from "../../subscriptions/types.ts";
import type { Sentence } from "../sentence.ts";
import type { AskSchedule, Weekday } from "../types.ts";
import { MONTHS, numberOf, WEEKDAYS } from "../vocabulary.ts";
import { zoneAt } from "../zones.ts";
import type { Pass, SchedulePart } from "./found.ts";
import { type Example, firstAt, type Rule, type RuleContext } from "./rule.ts";
import { SENT_THINGS, SHOW_WORDS } from "./sending.ts";
import { type PartOfDay, partOfDayWord, type SaidTime, TIME_BOUNDS, timeAt, timeOfDay } from "./times.ts";

/**
 * When to send: "every Monday at 9", "daily at 8:30", "each evening at 6", "every working day",
 * "on the 1st", "the last working day of every month", "every quarter". Each rule reads one piece of a
 * schedule; the pass merges the pieces into what a proposal carries, in the subscription's terms.
 */

const DAY_CODES: Weekday[] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
const dayCode = (w: string | undefined): Weekday | undefined => {
  const i = WEEKDAYS.indexOf(w as never);
  return i >= 0 ? DAY_CODES[i] : undefined;
};

/** Monday to Friday, the days of a `weekdays` schedule. */
const WORKWEEK: readonly Weekday[] = ["mon", "tue", "wed", "thu", "fri"];

/** What one rule read: a piece of a schedule, merged with the others. */
interface Piece {
  frequency?: SchedulePart["frequency"];
  days?: Weekday[];
  /** A month or a quarter said: the schedule is monthly (quarterly) whatever else is said. */
  monthly?: true;
  quarterly?: true;
  on?: MonthDay;
  every?: string;
  twice?: true;
  /** A frequency word said alone. */
  bare?: string;
  said?: SaidTime;
  partOfDay?: PartOfDay;
  tz?: string;
}

type ScheduleHit = { len: number; piece: Piece };
type ScheduleRule = Rule<ScheduleHit>;

const SPACED_UNITS = "days|weeks|months|hours|day|week|month|hour";

/**
 * "every 2 weeks", "every other day", "every fortnight", "biweekly", "bi-weekly", "fortnightly": runs
 * further apart than one unit, which no schedule here keeps; read whole so the answer can say so.
 */
const spaced: ScheduleRule = {
  name: "runs further apart than a unit",
  examples: [
    { q: "send me violations every other week", reads: { problem: "bad_condition" } },
    { q: "fortnightly digest", reads: { problem: "bad_condition" } },
  ],
  at(s, i) {
    const piece = (len: number, every: string) => ({ len, piece: { every } });
    if (s.match(i, "biweekly|fortnightly|bimonthly") === 1) return piece(1, s.typed[i] as string);
    if (s.match(i, "bi - weekly|monthly") === 3) return piece(3, `bi-${s.words[i + 2]}`);
    if (s.match(i, "every|each fortnight") === 2) return piece(2, "every fortnight");
    if (s.match(i, "every|each") !== 1) return null;
    const other = s.match(i + 1, "other|second|alternate");
    const unit = other === 1 && (s.match(i + 2, SPACED_UNITS) === 1 || dayCode(s.free(i + 2)) !== undefined);
    if (unit) return piece(3, `every ${s.typed[i + 1]} ${s.typed[i + 2]}`);
    const n = numberOf(s.free(i + 1));
    if (n !== undefined && n >= 2 && s.match(i + 2, SPACED_UNITS) === 1)
      return piece(3, `every ${n} ${s.words[i + 2]}`);
    return null;
  },
};

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

/** A part of the day said after a schedule's days ("every Monday morning", "on weekday evenings"). */
function partAfter(s: Sentence, at: number): { len: number; partOfDay?: PartOfDay } {
  const part = partOfDayWord(s.free(at));
  return part ? { len: 1, partOfDay: part } : { len: 0 };
}

/** "every Monday", "each Tuesday and Thursday", "every Monday morning". */
const everyWeekday: ScheduleRule = {
  name: "every weekday named",
  examples: [
    { q: "send me payments violations every Monday at 9", reads: { schedule: "weekly mon 09:00" } },
    { q: "every Tuesday evening send me a digest", reads: { schedule: "weekly tue 18:00" } },
  ],
  at(s, i) {
    if (s.match(i, "every|each") !== 1 || !dayCode(s.free(i + 1))) return null;
    const days: Weekday[] = [];
    const end = dayList(s, i + 1, days);
    const part = partAfter(s, end);
    return { len: end + part.len - i, piece: { frequency: "weekly", days, ...part } };
  },
};

/** Monday to Friday said as a unit: "weekday", "workday", "working day", "business day" and their plurals. */
function workdayWords(s: Sentence, at: number): number {
  return Math.max(
    s.match(at, "weekday|weekdays|workday|workdays|weekdaily"),
    s.match(at, "working|work|business day|days"),
  );
}

/** "every day", "each morning", "every week", "every hour", "every working day", "every month", "every quarter". */
const everyUnit: ScheduleRule = {
  name: "every unit of time",
  examples: [
    { q: "send me a digest every morning at 8", reads: { schedule: "daily 08:00" } },
    { q: "send me findings every working day", reads: { schedule: "weekdays 09:00" } },
    { q: "send me findings every weekday evening", reads: { schedule: "weekdays 18:00" } },
    { q: "send me violations every business day at 8am", reads: { schedule: "weekdays 08:00" } },
  ],
  at(s, i) {
    if (s.match(i, "every|each") !== 1) return null;
    const work = workdayWords(s, i + 1);
    if (work > 0) {
      const part = partAfter(s, i + 1 + work);
      return { len: 1 + work + part.len, piece: { frequency: "weekly", days: [...WORKWEEK], ...part } };
    }
    const w = s.free(i + 1);
    const part = partOfDayWord(w);
    if (part) return { len: 2, piece: { frequency: "daily", partOfDay: part } };
    switch (w) {
      case "day":
        return { len: 2, piece: { frequency: "daily" } };
      case "week":
        return { len: 2, piece: { frequency: "weekly" } };
      case "hour":
        return { len: 2, piece: { frequency: "hourly" } };
      case "month":
        return { len: 2, piece: { monthly: true } };
      case "quarter":
        return { len: 2, piece: { monthly: true, quarterly: true } };
      default:
        return null;
    }
  },
};

/** "once a week", "once a day", "once a month", "once per quarter"; "twice a day" (refused as such). */
const onceA: ScheduleRule = {
  name: "once a unit",
  examples: [
    { q: "once a week send me violations", reads: { schedule: "weekly mon 09:00" } },
    { q: "send me a digest twice a day", reads: { problem: "bad_condition" } },
  ],
  at(s, i) {
    if (s.match(i, "once|twice a|per|every day|week|month|quarter") !== 3) return null;
    const unit = s.words[i + 2];
    const twice = s.words[i] === "twice" ? { twice: true as const } : {};
    if (unit === "day") return { len: 3, piece: { frequency: "daily", ...twice } };
    if (unit === "week") return { len: 3, piece: { frequency: "weekly", ...twice } };
    return { len: 3, piece: { monthly: true, ...(unit === "quarter" ? { quarterly: true } : {}), ...twice } };
  },
};

/** "daily", "weekly", "hourly", "nightly", "monthly", "quarterly", "weekdays": a frequency in one word. */
const frequencyWord: ScheduleRule = {
  name: "a frequency word",
  examples: [
    { q: "daily digest please", reads: { schedule: "daily 09:00" } },
    { q: "a quarterly report", reads: { schedule: "quarterly 1 09:00" } },
    { q: "weekdays at 8 send me findings", reads: { schedule: "weekdays 08:00" } },
    { q: "send me findings on weekday mornings at 8", reads: { schedule: "weekdays 08:00" } },
    { q: "a nightly digest", reads: { schedule: "daily 21:00" } },
  ],
  at(s, i) {
    const w = s.free(i);
    const bare = { bare: s.typed[i] as string };
    switch (w) {
      case "daily":
      case "weekly":
      case "hourly":
        return { len: 1, piece: { frequency: w, bare: w } };
      case "nightly":
        return { len: 1, piece: { frequency: "daily", partOfDay: "night" } };
      case "monthly":
        return { len: 1, piece: { monthly: true, bare: "monthly" } };
      case "quarterly":
        return { len: 1, piece: { monthly: true, quarterly: true, bare: "quarterly" } };
      default: {
        // "weekdays", "workdays", "working days only", "on business days".
        const lead = s.match(i, "on|during?");
        // "weekday mornings": the plural of the part of the day says it is every one of them.
        const partOfDay = partOfDayWord(s.free(i + lead + 1));
        if (s.match(i + lead, "weekday|workday") === 1 && partOfDay && /s$/.test(s.typed[i + lead + 1] ?? ""))
          return { len: lead + 2, piece: { frequency: "weekly", days: [...WORKWEEK], partOfDay } };
        const work = s.match(i + lead, "weekdays|workdays");
        const days = work === 1 ? 1 : s.match(i + lead, "working|work|business days");
        if (days <= 0) return null;
        const only = Math.max(0, s.match(i + lead + days, "only"));
        const part = partAfter(s, i + lead + days + only);
        // Said alone ("weekdays"), a word that is a schedule only with something to send, as "daily" is.
        const alone = lead === 0 && work === 1 && only === 0 && part.len === 0 ? bare : {};
        return {
          len: lead + days + only + part.len,
          piece: { frequency: "weekly", days: [...WORKWEEK], ...alone, ...part },
        };
      }
    }
  },
};

/** "on Mondays", "Tuesdays and Thursdays" (plural as typed), "Monday mornings": a weekday schedule. */
const pluralWeekdays: ScheduleRule = {
  name: "weekdays in the plural",
  examples: [
    { q: "send me violations on Mondays", reads: { schedule: "weekly mon 09:00" } },
    { q: "send me findings monday mornings at 8", reads: { schedule: "weekly mon 08:00" } },
  ],
  at(s, i) {
    const on = Math.max(0, s.match(i, "on"));
    const day = dayCode(s.free(i + on));
    if (!day) return null;
    const plural = /s$/.test(s.typed[i + on] ?? "");
    const days: Weekday[] = [];
    const end = dayList(s, i + on, days);
    const part = partAfter(s, end);
    // "Monday mornings": the plural of the part of the day says it is every Monday.
    const partPlural = part.len > 0 && /s$/.test(s.typed[end] ?? "");
    if (!plural && !partPlural) return null;
    return { len: end + part.len - i, piece: { frequency: "weekly", days, ...part } };
  },
};

const DAY_ONE: MonthDay = { kind: "day", day: 1 };
const LAST_DAY: MonthDay = { kind: "day", day: 31 };

/**
 * "on the 1st", "the first of the month", "the 15th of each month", "the first Monday", "the last
 * working day of every quarter": the day of a monthly schedule at `i`, as the slash command reads it;
 * `unit` says whether "of the month" or "of every quarter" came with it.
 */
function monthDayAt(
  s: Sentence,
  i: number,
): { len: number; on: MonthDay; unit?: "month" | "quarter"; lead: number } | null {
  const lead = Math.max(0, s.match(i, "on? the?"));
  const words = [0, 1, 2].map((k) => s.free(i + lead + k) ?? "");
  const w = words[0] as string;
  // "on the first of the month" is the 1st; a bare number is not a day here ("top 5").
  const read =
    w === "first" && lead > 0 && words[1] === "of" ? { on: DAY_ONE, len: 1 } : readMonthDay(words, 0);
  if (!read || /^\d+$/.test(w)) return null;
  const at = i + lead + read.len;
  // "on the 3rd of November", "the 3rd November": a date, not a day of every month.
  if (
    MONTHS.includes(s.words[at] as never) ||
    (s.words[at] === "of" && MONTHS.includes(s.words[at + 1] as never))
  )
    return null;
  const of = s.match(at, "of the|each|every month|quarter");
  if (of === 3)
    return { len: lead + read.len + 3, on: read.on, unit: s.words[at + 2] as "month" | "quarter", lead };
  // "last Friday", "last day" without "on"/"the" is a period asked about, not a schedule's day.
  if (lead === 0 && w === "last") return null;
  return { len: lead + read.len, on: read.on, lead };
}

/** "the 15th of every month", "the first Monday of each quarter", "every 1st of the month": a monthly day said whole. */
const dayOfEveryMonth: ScheduleRule = {
  name: "a day of every month or quarter",
  examples: [
    {
      q: "send me findings on the 1st of every month",
      reads: { schedule: "monthly 1 09:00", range: "lastmonth" },
    },
    {
      q: "send me a digest on the first Monday of the month",
      reads: { schedule: "monthly first mon 09:00" },
    },
    {
      q: "send me the digest on the last business day of every quarter",
      reads: { schedule: "quarterly lastworkday 09:00", range: "thisquarter" },
    },
  ],
  at(s, i) {
    const every = Math.max(0, s.match(i, "every|each"));
    const day = monthDayAt(s, i + every);
    if (!day?.unit) return null;
    const quarterly = day.unit === "quarter" ? { quarterly: true as const } : {};
    return { len: every + day.len, piece: { monthly: true, on: day.on, ...quarterly } };
  },
};

/** "at the end of every month", "the start of each quarter", "month-end", "EOM": the first or last day. */
const monthEdge: ScheduleRule = {
  name: "the start or end of every month or quarter",
  examples: [
    {
      q: "send me violations at the end of every month",
      reads: { schedule: "monthly 31 09:00", range: "thismonth" },
    },
    {
      q: "a report at the start of each quarter",
      reads: { schedule: "quarterly 1 09:00", range: "lastquarter" },
    },
  ],
  at(s, i) {
    const len = s.match(i, "at? the? start|beginning|end of every|each month|quarter");
    if (len <= 0) return null;
    const unit = s.words[i + len - 1];
    const end = s.words[i + len - 4] === "end";
    return {
      len,
      piece: {
        monthly: true,
        on: end ? LAST_DAY : DAY_ONE,
        ...(unit === "quarter" ? { quarterly: true } : {}),
      },
    };
  },
};

/** A time of day said ("at 9", "9am", "at 6 in the evening"), with the zone said after it. */
const timeWithZone: ScheduleRule = {
  name: "a time of day",
  examples: [
    { q: "send me violations every friday at 5pm London time", reads: { schedule: "weekly fri 17:00" } },
    { q: "send me findings daily at around 7", reads: { schedule: "daily 07:00" } },
  ],
  at(s, i) {
    const at = Math.max(0, s.match(i, "at? around"), s.match(i, "at"));
    const said = timeAt(s, i + at, at > 0);
    // "since 9am", "after 5pm": a part of a day asked about, not when to send (the periods refuse it).
    const bound = at === 0 && TIME_BOUNDS.has(s.free(i - 1) ?? "");
    if (!said || bound || (at === 0 && !/[a-z:]/.test(s.words[i] ?? ""))) return null;
    const end = i + at + said.len;
    const zone = zoneAt(s, end, true);
    return { len: at + said.len + (zone?.len ?? 0), piece: { said, ...(zone ? { tz: zone.tz } : {}) } };
  },
};

/** The schedule's rules, tried in this order at each word. */
export const SCHEDULE_RULES: readonly ScheduleRule[] = [
  spaced,
  everyWeekday,
  everyUnit,
  onceA,
  frequencyWord,
  pluralWeekdays,
  dayOfEveryMonth,
  monthEdge,
  timeWithZone,
];

/** The pieces read so far, and what they add up to. */
class Pieces {
  readonly part: SchedulePart = { days: [], strong: false, bare: [] };
  found = false;
  monthly = false;
  said?: SaidTime;
  partOfDay?: PartOfDay;

  add(p: Piece): void {
    const part = this.part;
    this.found = true;
    if (p.frequency) part.frequency = p.frequency;
    if (p.days) part.days.push(...p.days);
    if (p.monthly) this.monthly = true;
    if (p.quarterly) part.quarterly = true;
    if (p.on) this.addDay(p.on);
    if (p.every) part.every = p.every;
    if (p.twice) part.twice = true;
    if (p.bare) part.bare.push(p.bare);
    if (p.said) this.said = p.said;
    if (p.partOfDay) this.partOfDay ??= p.partOfDay;
    if (p.tz) part.tz = p.tz;
  }

  /** A day of the month; a second, other one ("the 1st and the 15th") is more than one run a month. */
  addDay(on: MonthDay): void {
    const was = this.part.on;
    if (was && JSON.stringify(was) !== JSON.stringify(on)) this.part.twice = true;
    this.part.on ??= on;
  }
}

/** Words that say a sentence is about sending on a schedule, for the days left out after "except". */
const SCHEDULE_CUES: ReadonlySet<string> = new Set([
  "every",
  "each",
  "daily",
  "weekly",
  "hourly",
  "weekday",
  "weekdays",
]);

/**
 * Claims every schedule word in the sentence and returns what they say (nothing when none). `toSend`:
 * something is to be sent (said, or a report named), so that a lone day or weekday is the schedule's.
 */
export function readSchedule(
  s: Sentence,
  ctx: RuleContext,
  sending: boolean,
  toSend: boolean,
): SchedulePart | null {
  const pieces = new Pieces();
  const part = pieces.part;
  // "except Fridays" first, so that its weekdays are not taken for the schedule's own; only in a
  // sentence about sending on a schedule ("violations except on Mondays" asks for something else).
  const except = sending || s.words.some((w) => SCHEDULE_CUES.has(w)) ? exceptedDays(s) : null;
  if (except) pieces.found = true;
  for (let i = 0; i < s.length; i++) {
    if (s.isClaimed(i)) continue;
    const hit = firstAt(SCHEDULE_RULES, s, i, ctx);
    if (!hit) continue;
    pieces.add(hit.piece);
    s.claim(i, hit.len);
    i += hit.len - 1;
  }
  // "every Monday at 9, London time": the zone said apart from the time.
  if (pieces.found)
    for (let i = 0; i < s.length && part.tz === undefined; i++) {
      const zone = zoneAt(s, i, false);
      if (zone) {
        part.tz = zone.tz;
        s.claim(i, zone.len);
      }
    }
  // "on the 1st", before or after "monthly", or with something to send ("send me a report on the
  // 1st"): the day of a monthly schedule. Without either, it is the day asked about.
  for (let i = 0; i < s.length; i++) {
    const day = monthDayAt(s, i);
    if (!day || !(pieces.monthly || (toSend && day.lead > 0 && s.words[i] === "on"))) continue;
    s.claim(i, day.len);
    pieces.add({ monthly: true, on: day.on, ...(day.unit === "quarter" ? { quarterly: true } : {}) });
  }
  // "send it at the end of the month", "a month-end report": the month's (quarter's) last day; "at the
  // start of the month" its first ("since the start of the month" stays a period).
  if (toSend || pieces.monthly)
    for (let i = 0; i < s.length; i++) {
      const end = Math.max(
        s.match(i, "at|on|by? the? end of the|each|every? month|quarter"),
        s.match(i, "month|quarter - end"),
        s.match(i, "eom|eoq"),
      );
      const start = s.match(i, "at|on the start|beginning of the|each|every? month|quarter");
      const len = Math.max(end, start);
      if (len <= 0) continue;
      const said = s.words.slice(i, i + len);
      const quarterly = said.includes("quarter") || said.includes("eoq") ? { quarterly: true as const } : {};
      s.claim(i, len);
      pieces.add({ monthly: true, on: end > 0 ? LAST_DAY : DAY_ONE, ...quarterly });
    }
  // "every day in the morning", "first thing on Monday", "at night": the part of the day of a schedule.
  if (pieces.found || toSend)
    for (let i = 0; i < s.length; i++) {
      const len = Math.max(s.match(i, "in the morning|afternoon|evening"), s.match(i, "at night"));
      const first = s.match(i, "first thing in? the? morning?");
      if (len > 0 || first > 0) {
        s.claim(i, Math.max(len, first));
        pieces.add({ partOfDay: first > 0 ? "morning" : (partOfDayWord(s.words[i + len - 1]) as PartOfDay) });
      }
    }
  // Once something is to be sent on a schedule, weekdays said one by one ("on Monday and Wednesday"),
  // as a span ("Monday to Friday") or left out ("except Fridays") are its days, not periods.
  if (pieces.found || sending) weekdayWords(s, pieces, pieces.found);
  if (except && part.frequency === "hourly")
    part.every = `${part.bare.includes("hourly") ? "hourly" : "every hour"} ${except.said}`;
  else if (except) {
    const base = part.days.length > 0 ? part.days : DAY_CODES;
    part.days = base.filter((d) => !except.days.has(d));
    part.frequency = "weekly";
  }
  // Monthly said anywhere ("a monthly digest every Monday", "the first Monday of every month") makes
  // the schedule monthly, whatever weekdays were said with it (a weekday without which one is asked).
  if (pieces.monthly) part.frequency = "monthly";
  if (!pieces.found) return null;
  part.days = [...new Set(part.days)];
  const time = timeOfDay(pieces.said, pieces.partOfDay);
  if (time) part.time = time;
  part.strong = part.days.length > 0 || part.time !== undefined || part.bare.length === 0;
  return part;
}

/**
 * Claims the weekdays of a schedule (lists, spans) into `part`. One weekday alone only when the
 * schedule is `established` by other words: "send me Monday's numbers" asks for that day.
 */
function weekdayWords(s: Sentence, pieces: Pieces, established: boolean): void {
  for (let i = 0; i < s.length; i++) {
    const lead = Math.max(0, s.match(i, "on|from"));
    if (!dayCode(s.free(i + lead))) continue;
    // "since Monday", "until Friday": a bound of the period asked about.
    if (lead === 0 && TIME_BOUNDS.has(s.free(i - 1) ?? "")) continue;
    const listed: Weekday[] = [];
    const end = dayList(s, i + lead, listed);
    if (listed.length < 2 && !established) continue;
    const part = partAfter(s, end);
    s.claim(i, end + part.len - i);
    pieces.add({ frequency: "weekly", days: listed, ...part });
  }
}

/** "except Fridays", "excluding weekends", "but not on Mondays": the days left out, claimed, and the words as said. */
function exceptedDays(s: Sentence): { days: Set<Weekday>; said: string } | null {
  const days = new Set<Weekday>();
  const said: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const but = Math.max(
      s.match(i, "except|excluding|exclude on|for?"),
      s.match(i, "but not on|for?"),
      s.match(i, "not|never on|at|during"),
      // "every weekday but Friday": "but" right before the days it leaves out.
      s.match(i, "but") === 1 && (dayCode(s.free(i + 1)) || s.match(i + 1, "the? weekend|weekends") > 0)
        ? 1
        : -1,
    );
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
 * What to answer a monthly or quarterly schedule whose day is a weekday said without which one ("a
 * monthly digest every Monday"): which of them, with an example.
 */
export function whichWeekdayRefusal(part: SchedulePart): string {
  const kind = part.quarterly ? "quarterly" : "monthly";
  const unit = part.quarterly ? "quarter" : "month";
  const day = part.days[0] ?? "mon";
  const name = WEEKDAYS[DAY_CODES.indexOf(day)] ?? day;
  const title = `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return `A ${kind} digest runs on one day of the ${unit}: say which ${title} (first to fourth, or last), e.g. “the first ${title} of every ${unit}”.`;
}

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

export const SCHEDULE_EXAMPLES: readonly Example[] = [
  {
    q: "send me a report on the 1st",
    reads: { intent: "subscribe", schedule: "monthly 1 09:00", range: "lastmonth" },
  },
  { q: "send me the digest on the 1st and the 15th", reads: { problem: "bad_condition" } },
  { q: "send me findings every day except weekends", reads: { schedule: "weekdays 09:00" } },
  { q: "every weekday but Friday send me findings", reads: { schedule: "weekly mon,tue,wed,thu 09:00" } },
  { q: "send me violations daily in the evening", reads: { schedule: "daily 18:00" } },
  { q: "send me violations first thing on monday", reads: { schedule: "weekly mon 09:00" } },
  { q: "send me yesterday's numbers every morning", reads: { schedule: "daily 09:00", range: "yesterday" } },
  { q: "a month-end report", reads: { schedule: "monthly 31 09:00", range: "thismonth" } },
  { q: "violations on the 1st", reads: { intent: "digest", range: "2026-11-01" } },
  {
    q: "can you send me the violations on the 3rd of november",
    reads: { intent: "digest", range: "2026-11-03" },
  },
];

export const schedulePass: Pass = {
  name: "schedule",
  why: "before periods: 'every Monday', 'on the 1st' and 'at 9' are when to send, not days to look at",
  run(s, found, ctx) {
    const sentThing = s.typed.some((w) => SENT_THINGS.has(w)) && !s.typed.some((w) => SHOW_WORDS.has(w));
    found.schedule = readSchedule(s, ctx, found.sending, found.sending || sentThing);
  },
};
