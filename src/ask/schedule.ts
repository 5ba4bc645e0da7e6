import { isAppError } from "../errors.ts";
import { conditionText, parseCondition } from "../subscriptions/conditions.ts";
import type { Sentence } from "./sentence.ts";
import type { AskSchedule, Weekday } from "./types.ts";
import { numberOf, WEEKDAYS } from "./vocabulary.ts";

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
  frequency?: AskSchedule["frequency"] | "monthly";
  days: Weekday[];
  time?: string;
  /** Said with "every", "each", "on Mondays", "once a week" or a time of day: clearly a schedule. */
  strong: boolean;
  /** Frequency words said alone ("daily"), as typed: a schedule only if something is to be sent. */
  bare: string[];
}

/**
 * Claims every schedule word in the sentence and returns what they say (nothing when none).
 * `monthly` is read so it can be refused by name: the slash command has no monthly schedule.
 */
export function readSchedule(s: Sentence): SchedulePart | null {
  const part: SchedulePart = { days: [], strong: false, bare: [] };
  let found = false;
  for (let i = 0; i < s.length; i++) {
    const every = s.match(i, "every|each");
    if (every === 1) {
      const k = i + 1;
      const w = s.free(k);
      const day = dayCode(w);
      if (day) {
        let at = k;
        while (dayCode(s.free(at))) {
          part.days.push(dayCode(s.free(at)) as Weekday);
          at++;
          if (s.match(at, "and|or") === 1 && dayCode(s.free(at + 1))) at++;
        }
        part.frequency = "weekly";
        // "every Monday morning": the default time, said.
        if (s.match(at, "morning|mornings") === 1) at++;
        else if (s.match(at, "evening|evenings") === 1) {
          part.time ??= "18:00";
          at++;
        }
        s.claim(i, at - i);
        found = true;
        continue;
      }
      const unit = s.match(k, "day|morning|evening|night|weekday|weekdays|workday|week|hour|month");
      if (unit === 1) {
        if (w === "weekday" || w === "weekdays" || w === "workday") {
          part.frequency = "weekly";
          part.days.push("mon", "tue", "wed", "thu", "fri");
        } else if (w === "week") part.frequency = "weekly";
        else if (w === "hour") part.frequency = "hourly";
        else if (w === "month") part.frequency = "monthly";
        else {
          part.frequency = "daily";
          if (w === "evening") part.time ??= "18:00";
        }
        s.claim(i, 2);
        found = true;
        continue;
      }
    }
    const once = s.match(i, "once|twice a day|week|month");
    if (once === 3) {
      const unit = s.words[i + 2];
      part.frequency = unit === "day" ? "daily" : unit === "week" ? "weekly" : "monthly";
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
      part.bare.push(w);
      s.claim(i);
      found = true;
      continue;
    }
    // "on Mondays" (plural as typed): a weekday schedule.
    const on = s.match(i, "on");
    const plural = dayCode(s.free(i + on)) && /s$/.test(s.typed[i + on] ?? "") ? 1 : 0;
    if (plural) {
      part.frequency = "weekly";
      part.days.push(dayCode(s.free(i + on)) as Weekday);
      s.claim(i, on + 1);
      found = true;
      continue;
    }
    const at = s.free(i) === "at" ? 1 : 0;
    const t = timeAt(s, i + at);
    if (t && (at === 1 || /[a-z:]/.test(s.words[i] ?? ""))) {
      part.time = t.time;
      s.claim(i, at + t.len);
      found = true;
    }
  }
  if (found) part.days = [...new Set(part.days)];
  part.strong = found && (part.days.length > 0 || part.time !== undefined || part.bare.length === 0);
  return found ? part : null;
}

/** The schedule a proposal uses: what was said, the slash command's defaults for the rest. */
export function scheduleOf(part: SchedulePart | null, mode: "digest" | "alert"): AskSchedule {
  const frequency = part?.frequency && part.frequency !== "monthly" ? part.frequency : undefined;
  const days = part?.days ?? [];
  const f = frequency ?? (days.length > 0 ? "weekly" : mode === "alert" ? "hourly" : "weekly");
  return {
    frequency: f,
    days: f === "weekly" ? (days.length > 0 ? days : ["mon"]) : [],
    time: part?.time ?? (mode === "alert" ? "00:00" : "09:00"),
  };
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
  "more|greater|higher than",
  ">|>=",
];
const BELOW = [
  "drop|drops|fall|falls|go|goes|are|is|get|gets|be|dip|dips below|under|beneath",
  "below|under|beneath",
  "less|fewer|lower than",
  "<|<=",
];
const UP = [
  "go|goes up by?",
  "rise|rises|increase|increases|jump|jumps|grow|grows|spike|spikes|climb|climbs by?",
];
const DOWN = ["go|goes down by?", "drop|drops|fall|falls|decrease|decreases|shrink|shrinks|dip|dips by?"];
const ANY = ["change|changes|move|moves by?"];
const IN_A_ROW = "weeks|days|periods|times|runs|hours in a row";

/**
 * The condition said from `i` ("violations go above 500", "findings rise by 20%", "anything
 * changes"), as the subscription grammar's canonical text, or why it is not one.
 */
export function conditionAt(
  s: Sentence,
  i: number,
): { len: number; condition: string } | { len: number; problem: string } | null {
  const anything = s.match(i, "anything|something|it|the? numbers? change|changes|moves|move");
  if (anything >= 2) return { len: anything, condition: "when changed" };
  const lead = s.match(i, "the|our|total?");
  const metricWord = s.free(i + lead);
  const metric = CONDITION_METRICS[metricWord ?? ""];
  if (!metric) {
    if (s.match(i + lead, "fix|merged rate|violations?") >= 1)
      return {
        len: lead + 1,
        problem: "Alerts can watch findings, violations or fixes; not the fix rate or merged violations.",
      };
    return null;
  }
  const at = i + lead + 1;
  const tryAll = (patterns: string[], verb: string): { len: number; text: string } | null => {
    for (const p of patterns) {
      const len = s.match(at, p);
      if (len <= 0) continue;
      const amount = amountAt(s, at + len);
      if (!amount) continue;
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
  const found =
    tryAll(ABOVE, ">") ??
    tryAll(BELOW, "<") ??
    tryAll(UP, "up") ??
    tryAll(DOWN, "down") ??
    tryAll(ANY, "changed");
  // "violations rise 3 weeks in a row" without "by".
  if (!found) {
    const rising = s.match(at, "rise|rises|rising|increase|increases|keep|keeps rising?");
    const n = rising > 0 ? numberOf(s.free(at + rising)) : undefined;
    const row = n !== undefined ? s.match(at + rising + 1, IN_A_ROW) : -1;
    if (n !== undefined && row > 0) return canonical(lead + 1 + rising + 1 + row, `${metric} rose ${n}`);
    return null;
  }
  return canonical(lead + 1 + found.len, found.text);
}

function canonical(
  len: number,
  text: string,
): { len: number; condition: string } | { len: number; problem: string } {
  try {
    return { len, condition: conditionText(parseCondition(text)) };
  } catch (err) {
    const message = isAppError(err)
      ? (err.message.split("\n")[0] ?? err.message)
      : "That is not a condition.";
    return { len, problem: message };
  }
}
