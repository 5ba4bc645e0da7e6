import type { MonthDay } from "../../subscriptions/types.ts";
import type { Unit } from "../calendar.ts";
import type { PeriodHit } from "../period-core.ts";
import type { Sentence } from "../sentence.ts";
import type { AskMetric, AskProblem, DayRange, Subjects, Weekday } from "../types.ts";
import type { RuleContext } from "./rule.ts";

/**
 * What the passes of the reader found in a question, before anything is decided: each pass claims its
 * words in the sentence and writes what they said here. The decisions (which period, which intent,
 * what to refuse) are made from this alone, once every pass has run (decide.ts).
 */

/** Words that name what is wanted: the drivers, a trend, a file, an alert, a notice. */
export type IntentWord = "drivers" | "trend" | "export" | "alert" | "notify";

/** The schedule said, before its defaults (scheduleOf in schedules.ts fills them in). */
export interface SchedulePart {
  /** `monthly` also stands for quarterly (see `quarterly`). */
  frequency?: "hourly" | "daily" | "weekly" | "monthly";
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
  /** "twice a day|week", "on the 1st and the 15th": more often than one run per period, which no schedule does. */
  twice?: true;
  /** The zone said with the time, IANA. */
  tz?: string;
}

/** A comparison as said, before the period asked about is known. */
export type SaidComparison =
  | { kind: "period"; range: DayRange }
  /** The unit before the period asked about ("the month before", "the previous week"). */
  | { kind: "before"; unit: Unit }
  /** "the 30 days before", "the 2 weeks prior": that many days, weeks or months ending where the period starts. */
  | { kind: "span_before"; n: number; unit: Unit }
  /** The equally long period just before: every digest's own comparison. */
  | { kind: "previous" }
  /** "this week vs last", "compared to the one before": the whole unit before, of the period's own kind. */
  | { kind: "elliptic" }
  /**
   * The same days `n` units earlier: "a month ago", "2 weeks ago", "the same period last year" (12
   * months), "the same week last year" (52 weeks, so the weekdays stay).
   */
  | { kind: "ago"; n: number; unit: Unit; fromNow?: true }
  | { kind: "problem"; problem: string };

/** A word read as something it does not spell: a slip, a short form, a number in words. */
export interface ReadAs {
  typed: string;
  as: string;
}

/** The units said as "X over X": consecutive periods of one length. */
export type OverUnit = "day" | "week" | "month" | "quarter" | "year";

export interface Found {
  /** Asked for help or examples ("what can you do"). */
  help: boolean;
  /** The alert's condition, in the subscription grammar's canonical text. */
  condition?: string;
  /** The range a condition said per day or per week is counted over (`last1d`, `yesterday`, …). */
  conditionRange?: string;
  /** Something is to be sent ("send", "post", "remind", "schedule", "set up a digest"). */
  sending: boolean;
  schedule: SchedulePart | null;
  /** A channel named as where to send it. */
  channel: boolean;
  /** Someone else named as who receives it. */
  someoneElse: boolean;
  /** A period named to compare with. */
  said?: SaidComparison;
  /** The unit of an "X over X" comparison ("week over week"), which implies the period asked about. */
  implied?: OverUnit;
  periods: PeriodHit[];
  subjects: Subjects;
  metrics: AskMetric[];
  intentWords: Set<IntentWord>;
  /** A word passed over that still says "tell me how things stand" ("status", "numbers"). */
  digestCue: boolean;
  problems: AskProblem[];
  readAs: ReadAs[];
}

export function nothingFound(): Found {
  return {
    help: false,
    sending: false,
    schedule: null,
    channel: false,
    someoneElse: false,
    periods: [],
    subjects: { assets: [], groups: [], scanners: [] },
    metrics: [],
    intentWords: new Set(),
    digestCue: false,
    problems: [],
    readAs: [],
  };
}

/** One pass of the reader over the sentence: it claims the words of its kind of phrase. */
export interface Pass {
  readonly name: string;
  /** Why it runs where it does: which words it must claim before the passes after it see them. */
  readonly why: string;
  readonly run: (s: Sentence, found: Found, ctx: RuleContext) => void;
}
