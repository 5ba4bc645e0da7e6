import type { Sentence } from "../sentence.ts";
import type { Example } from "./rule.ts";
import { UNITS } from "./words.ts";

/**
 * Times of day as people say them: `9`, `9am`, `9:30`, `7.30`, `17:00`, `at 0800`, `5 pm`, `noon`,
 * `midnight`, `7 o'clock`, `at seven`, `half past 8`, `quarter to 9`, `around 9`; and the part of the
 * day said with them ("at 6 in the evening", "every night at 10"), which makes an hour said without
 * am or pm one of that part of the day: evening at 6 is 18:00.
 */

export type PartOfDay = "morning" | "afternoon" | "evening" | "night";

/** The time a part of the day stands for in a schedule, when no time is said (morning: the command's default). */
export const PART_OF_DAY: Readonly<Record<PartOfDay, string>> = {
  morning: "09:00",
  afternoon: "14:00",
  evening: "18:00",
  night: "21:00",
};

/** "morning", "mornings", "evening", … as a part of the day, or undefined. */
export function partOfDayWord(w: string | undefined): PartOfDay | undefined {
  const word = w?.replace(/s$/, "");
  return word !== undefined && Object.hasOwn(PART_OF_DAY, word) ? (word as PartOfDay) : undefined;
}

export interface SaidTime {
  len: number;
  /** HH:MM, 24-hour, as said. */
  time: string;
  /** An hour of 1–11 said without am or pm ("at 6", "6:30"), which a part of the day places. */
  bare: boolean;
  /** The part of the day said with it ("at 6 in the evening", "at 10 at night"). */
  partOfDay?: PartOfDay;
}

/** Words that make a following time a bound of the period asked about. */
export const TIME_BOUNDS: ReadonlySet<string> = new Set([
  "since",
  "after",
  "before",
  "until",
  "till",
  "from",
]);

/** An hour said as a word after "at": one to twelve, the number words a clock face has. */
const HOUR_WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(UNITS).filter(([, n]) => n >= 1 && n <= 12),
);

const pad = (n: number) => String(n).padStart(2, "0");

/** An hour and minute as said, with its suffix, checked; null when it is not a time. */
function clock(h: number, min: number, suffix: string | undefined, len: number): SaidTime | null {
  if (min > 59 || h > 23 || (suffix && (h < 1 || h > 12))) return null;
  let hour = h;
  if (suffix === "pm" && hour < 12) hour += 12;
  if (suffix === "am" && hour === 12) hour = 0;
  return { len, time: `${pad(hour)}:${pad(min)}`, bare: !suffix && h >= 1 && h <= 11 };
}

/** `9`, `9am`, `9:30`, `7.30pm`, `9ish`, and `0800` after "at". */
function digitsAt(
  w: string,
  afterAt: boolean,
): { h: number; min: number; minSaid: boolean; suffix?: string } | null {
  const m = /^(\d{1,2})(?:[:.](\d{2}))?(am|pm|a\.m|p\.m)?(?:ish)?$/.exec(w);
  if (m) {
    // "7.30" is a time only after "at" or with am/pm: alone it may be a number.
    if (w.includes(".") && !afterAt && !m[3]) return null;
    const suffix = m[3]?.replace(".", "");
    const min = m[2] === undefined ? 0 : Number(m[2]);
    return { h: Number(m[1]), min, minSaid: m[2] !== undefined, ...(suffix ? { suffix } : {}) };
  }
  const four = afterAt ? /^([01]\d|2[0-3])([0-5]\d)$/.exec(w) : null;
  return four ? { h: Number(four[1]), min: Number(four[2]), minSaid: true } : null;
}

/**
 * The time said at `i`, or null. A bare number ("9") is a time only after "at" (`afterAt`, or the
 * caller checks); number words too ("at seven").
 */
export function timeAt(s: Sentence, i: number, afterAt = false): SaidTime | null {
  const w = s.free(i);
  if (w === undefined) return null;
  if (w === "noon" || w === "midday") return { len: 1, time: "12:00", bare: false };
  if (w === "midnight") return { len: 1, time: "00:00", bare: false };
  // "half past 8", "quarter past 9", "quarter to 9".
  const past = s.match(i, "half|quarter past|to");
  if (past === 2) {
    const inner = timeAt(s, i + 2, true);
    if (!inner || !/^\d\d:00$/.test(inner.time)) return null;
    const h = Number(inner.time.slice(0, 2));
    const by = w === "half" ? 30 : 15;
    const minutes = s.words[i + 1] === "past" ? h * 60 + by : h * 60 - by;
    if (w === "half" && s.words[i + 1] === "to") return null;
    const at = (minutes + 1440) % 1440;
    return { ...inner, len: 2 + inner.len, time: `${pad(Math.floor(at / 60))}:${pad(at % 60)}` };
  }
  const digits = digitsAt(w, afterAt);
  const word = afterAt && Object.hasOwn(HOUR_WORDS, w) ? HOUR_WORDS[w] : undefined;
  if (!digits && word === undefined) return null;
  let len = 1;
  let suffix = digits?.suffix;
  // "at nine thirty", "at 7 45": the minutes as a word of their own (numbers in words are digits by now).
  const minutes = afterAt && !suffix && !digits?.minSaid ? /^[0-5][05]$/.exec(s.free(i + 1) ?? "") : null;
  if (minutes) len = 2;
  const next = s.free(i + len);
  if (!suffix && (next === "am" || next === "pm")) {
    suffix = next;
    len++;
  }
  // "7 o'clock", "9 sharp".
  len += Math.max(0, s.match(i + len, "o'clock|oclock|sharp"));
  const min = minutes ? Number(minutes[0]) : (digits?.min ?? 0);
  const t = clock(digits?.h ?? (word as number), min, suffix, len);
  if (!t) return null;
  // "at 6 in the evening", "at 10 at night", "7 in the morning".
  const part = Math.max(s.match(i + len, "in the morning|afternoon|evening"), s.match(i + len, "at night"));
  if (part > 0) {
    const partOfDay = partOfDayWord(s.words[i + len + part - 1]) as PartOfDay;
    return { ...t, len: len + part, partOfDay };
  }
  return t;
}

/**
 * The time of a schedule: said, placed by the part of the day said with it (an hour of 1–11 without
 * am or pm is in the afternoon or evening when that is said, and at night from 6 on), else the part
 * of the day's own time.
 */
export function timeOfDay(said: SaidTime | undefined, part: PartOfDay | undefined): string | undefined {
  if (!said) return part ? PART_OF_DAY[part] : undefined;
  const p = said.partOfDay ?? part;
  if (!said.bare || !p || p === "morning") return said.time;
  const h = Number(said.time.slice(0, 2));
  if (p === "night" && h < 6) return said.time;
  return `${pad(h + 12)}${said.time.slice(2)}`;
}

export const TIME_EXAMPLES: readonly Example[] = [
  { q: "each morning at 7", reads: { intent: "subscribe", schedule: "daily 07:00" } },
  { q: "send me the digest each evening at 6", reads: { intent: "subscribe", schedule: "daily 18:00" } },
  { q: "every night at 10 please", reads: { intent: "subscribe", schedule: "daily 22:00" } },
  { q: "daily digest at 7 in the evening", reads: { intent: "subscribe", schedule: "daily 19:00" } },
  {
    q: "send me findings every day at half past eight",
    reads: { intent: "subscribe", schedule: "daily 08:30" },
  },
  { q: "send me findings every day at nine thirty", reads: { intent: "subscribe", schedule: "daily 09:30" } },
  { q: "send me findings every day at 7 45", reads: { intent: "subscribe", schedule: "daily 07:45" } },
  { q: "send me findings every day at 7 o'clock", reads: { intent: "subscribe", schedule: "daily 07:00" } },
  {
    q: "send me findings every monday at 7.30",
    reads: { intent: "subscribe", schedule: "weekly mon 07:30" },
  },
  {
    q: "send me the digest every friday at quarter to nine",
    reads: { intent: "subscribe", schedule: "weekly fri 08:45" },
  },
  { q: "a daily report at midday", reads: { intent: "subscribe", schedule: "daily 12:00" } },
];
