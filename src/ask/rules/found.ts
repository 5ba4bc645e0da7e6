import type { SaidComparison } from "../comparisons.ts";
import type { PeriodHit } from "../periods.ts";
import type { SchedulePart } from "../schedule.ts";
import type { Sentence } from "../sentence.ts";
import type { AskMetric, AskProblem, Subjects } from "../types.ts";
import type { RuleContext } from "./rule.ts";

/**
 * What the passes of the reader found in a question, before anything is decided: each pass claims its
 * words in the sentence and writes what they said here. The decisions (which period, which intent,
 * what to refuse) are made from this alone, once every pass has run (decide.ts).
 */

/** Words that name what is wanted: the drivers, a trend, a file, an alert, a notice. */
export type IntentWord = "drivers" | "trend" | "export" | "alert" | "notify";

/** A word read as something it does not spell: a slip, a short form, a number in words. */
export interface ReadAs {
  typed: string;
  as: string;
}

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
  /** The period asked about, when the words imply it ("week over week": last week). */
  implied?: "week" | "month" | "quarter" | "year";
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
