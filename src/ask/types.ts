import type { FilterOption, IsoDay } from "../analytics/types.ts";
import type { MonthDay } from "../subscriptions/types.ts";

/**
 * What a plain-language question was read as. The reader (read.ts) is deterministic and pure: the
 * same words, clock, zone and account names always give the same reading, and nothing it cannot
 * place is guessed at — it becomes a `problem`, answered with examples instead of numbers.
 */

/** What the person wants: the slash command's digest, its Why?, its trend, its CSV, or a schedule. */
export type AskIntent = "digest" | "drivers" | "trend" | "export" | "subscribe" | "alert" | "help";

export type AskMetric = "findings" | "violations" | "fixes" | "fixRate" | "merged";

/** A period read from the words, resolved to days in the person's zone. */
export interface DayRange {
  /** The slash command's form of it (`lastweek`, `last30d`, `2026-10-01..2026-10-31`). */
  spec: string;
  from: IsoDay;
  to: IsoDay;
}

/**
 * The period to compare with, when the question names one. `previous` is the service's own
 * previous period (equally long, just before): one query. Any other needs a second query.
 */
export interface Comparison extends DayRange {
  how: "previous" | "second_query";
}

/** Assets, asset groups and scanners the question names, resolved against the account's lists. */
export interface Subjects {
  assets: FilterOption[];
  /** Top-level asset groups (`payments` for everything under `payments / …`). */
  groups: string[];
  scanners: FilterOption[];
}

export type Weekday = "mon" | "tue" | "wed" | "thu" | "fri" | "sat" | "sun";

/**
 * When a proposed digest or alert runs: the subscription's own schedules (src/subscriptions/types.ts)
 * but cron, which nobody says in words. `weekdays` is Monday to Friday; a quarterly schedule runs in
 * one month of each quarter, as the subscription's does.
 */
export interface AskSchedule {
  frequency: "hourly" | "daily" | "weekdays" | "weekly" | "monthly" | "quarterly";
  /** The days of a weekly schedule; empty for every other frequency. */
  days: Weekday[];
  /** The day of the month of a monthly or quarterly schedule. */
  on?: MonthDay;
  /** HH:MM, 24-hour, in `tz`. */
  time: string;
  /** An IANA zone said with the time ("9am Pacific", "at 8 London time"); else the person's own. */
  tz?: string;
}

/** Why a question gets examples instead of an answer. */
export type AskProblem =
  /** A question longer than the reader reads (`chars` > `limit`): refused whole, never cut short. */
  | { kind: "too_long"; chars: number; limit: number }
  /** Words the reader could not place (never silently dropped). */
  | { kind: "unread"; words: string[] }
  /** A name that matches several assets or scanners: the slash command's suggestions. */
  | { kind: "ambiguous"; typed: string; suggestions: string[] }
  /** A period it understood but cannot ask for (the future, over 366 days, before 2000). */
  | { kind: "bad_range"; message: string }
  /** A schedule or condition it could not turn into a subscription. */
  | { kind: "bad_condition"; message: string }
  /** Two groups, assets or scanners set against each other: a digest compares periods, not subjects. */
  | { kind: "compare_subjects"; names: string[] }
  /** A wish to stop, pause or resume digests or alerts: the commands do that, a question does not. */
  | { kind: "manage"; action: ManageAction };

export type ManageAction = "stop" | "pause" | "resume";

export interface AskReading {
  intent: AskIntent;
  /** Metrics named, in the order said; empty = all of them. */
  metrics: AskMetric[];
  range: DayRange;
  /** Whether the period came from the words (else the slash command's default, the last 7 days). */
  rangeSaid: boolean;
  /** A period named to compare with; absent = the service's previous period, as in every digest. */
  comparison?: Comparison;
  subjects: Subjects;
  /** `subscribe` and `alert` only. */
  schedule?: AskSchedule;
  /** `alert` only: the subscription grammar's canonical condition (`when violations > 500`). */
  condition?: string;
  /** Things the answer must say about how it was computed (shown under the understood line). */
  notes: string[];
  /**
   * Words read by a guess, as typed and as read ("violatoins" as "violations", "pa" as `payments / api`):
   * the understood line says each, so a wrong guess shows. Absent when there are none.
   */
  readAs?: { typed: string; as: string }[];
  /** Set when the question cannot be answered as read; the answer is then examples. */
  problem?: AskProblem;
}

/** What the reader needs besides the words: the clock, the zone, and the account's names. */
export interface AskContext {
  now: Date;
  /** IANA zone of the person asking. */
  tz: string;
  assets: readonly FilterOption[];
  scanners: readonly FilterOption[];
  /** The app's own user id, whose mention (`<@U…>`) is how a channel addresses it. */
  botUserId?: string;
  /**
   * Longest question read, in characters [MAX_QUESTION_CHARS]. The Adjust form's question is longer:
   * it is composed from fields with limits of their own, and what the form holds is read whole.
   */
  maxChars?: number;
}
