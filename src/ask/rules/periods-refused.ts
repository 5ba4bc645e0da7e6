import { MAX_RANGE_DAYS } from "../../insights/range-grammar.ts";
import { type Hit, type PeriodHit, UNITS } from "../period-core.ts";
import type { Sentence } from "../sentence.ts";
import { numberOf } from "../vocabulary.ts";
import type { Rule } from "./rule.ts";
import { TIME_BOUNDS, timeAt } from "./times.ts";

/**
 * Periods that cannot be asked for, read so the answer says why: the future ("next week"), all time,
 * and parts of a day ("this morning", "since 9am"): the numbers are daily.
 */

type PeriodRule = Rule<PeriodHit>;

/** Periods that cannot be asked for, said plainly so the answer can say why. */
function impossible(s: Sentence, i: number): Hit {
  const next = s.match(i, "next|tomorrow|upcoming");
  if (next > 0) {
    // "next week", "the next 7 days": the unit (and its count) go with it.
    const counted = numberOf(s.free(i + 1)) !== undefined && UNITS[s.free(i + 2) ?? ""] ? 1 : 0;
    const unit = UNITS[s.free(i + 1 + counted) ?? ""] || s.free(i + 1) === "weekend" ? 1 + counted : 0;
    return {
      len: 1 + (s.free(i) === "tomorrow" ? 0 : unit),
      problem: "I only know what has already happened.",
    };
  }
  const ever = Math.max(s.match(i, "all time"), s.match(i, "ever"), s.match(i, "forever"));
  if (ever > 0) return { len: ever, problem: `I can look at up to ${MAX_RANGE_DAYS} days at a time.` };
  return null;
}

const PART_OF_DAY_PROBLEM =
  "The numbers are daily, so I can't look at part of a day: try “today”, “yesterday” or “the last 2 days”.";

/** "this morning", "tonight", "yesterday evening", "since 9am", "after noon": parts of a day. */
function partOfDay(s: Sentence, i: number): Hit {
  if (s.free(i) === "tonight") return { len: 1, problem: PART_OF_DAY_PROBLEM };
  const part = s.match(i, "this|last|today|yesterday morning|afternoon|evening|night");
  if (part === 2) return { len: 2, problem: PART_OF_DAY_PROBLEM };
  if (!TIME_BOUNDS.has(s.free(i) ?? "")) return null;
  const t = timeAt(s, i + 1);
  // A bare number after "since" or "from" is a day ("since 3"), not a time: only `9am`, `9:30`, `noon`.
  if (!t || (!/[a-z:]/.test(s.words[i + 1] ?? "") && t.len === 1)) return null;
  // "since 9am today": the day said with the time is part of it.
  const day = s.match(i + 1 + t.len, "today|yesterday") === 1 ? 1 : 0;
  return { len: 1 + t.len + day, problem: PART_OF_DAY_PROBLEM };
}

export const notYetOrTooLong: PeriodRule = {
  name: "the future, all time",
  examples: [
    { q: "findings for the next 7 days", reads: { problem: "bad_range" } },
    { q: "findings of all time", reads: { problem: "bad_range" } },
  ],
  at: (s, i) => impossible(s, i),
};

export const partOfADay: PeriodRule = {
  name: "part of a day",
  examples: [
    { q: "findings this morning", reads: { problem: "bad_range" } },
    { q: "how many findings since 9am today?", reads: { problem: "bad_range" } },
  ],
  at: (s, i) => partOfDay(s, i),
};
