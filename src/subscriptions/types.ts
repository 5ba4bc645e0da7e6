import type { ChartStyle } from "../insights/types.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { Act, AlertPost, Snooze } from "./alerts.ts";

/** Days of the week as the command grammar spells them; cron numbers them mon=1 … sun=0. */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
/** A weekday, lower-case, three letters. */
export type Weekday = (typeof WEEKDAYS)[number];

/** Which occurrence of a weekday in a month: the first … fourth, or the last. */
export type Nth = 1 | 2 | 3 | 4 | "last";

/**
 * The day of the month a monthly or quarterly schedule runs on. Working days are Monday to Friday
 * (no public holidays: they differ by country and team).
 */
export type MonthDay =
  /** Day 1–31; a month shorter than `day` runs on its last day (the 31st is every month's last day). */
  | { kind: "day"; day: number }
  /** The first … fourth, or the last, `weekday` of the month. */
  | { kind: "weekday"; nth: Nth; weekday: Weekday }
  /** The first or the last working day of the month. */
  | { kind: "workday"; which: "first" | "last" };

/**
 * When a subscription fires. Every kind but cron uses the record's `time` (hourly only its minute;
 * alerts check hourly); a cron expression carries its own. `weekdays` is Monday to Friday. A
 * quarterly schedule runs in one month of each calendar quarter: days counted from a month's start
 * (the 1st, the first Monday, the first working day) in the quarter's first month, days counted from
 * its end (the last day, the last Friday, the last working day) in its last month.
 */
export type Schedule =
  | { kind: "hourly" }
  | { kind: "daily" }
  | { kind: "weekdays" }
  | { kind: "weekly"; days: Weekday[] }
  | { kind: "monthly"; on: MonthDay }
  | { kind: "quarterly"; on: MonthDay }
  | { kind: "cron"; expression: string };

/** Paused subscriptions keep their record but have no scheduler. */
export type SubscriptionStatus = "active" | "paused";

/** The outcome of the most recent delivery attempt that reached a verdict. */
export interface LastDelivery {
  /** The delivery period (the scheduled fire time, or `send-…` for a test send). */
  period: string;
  /** ISO instant the outcome was recorded. */
  at: string;
  /** `skipped`: the run's condition was not met (or an alert check had nothing new to say). */
  outcome: "delivered" | "failed" | "skipped";
  /** Error code for failures (`unavailable`, `is_archived`, …); why, in words, for skipped runs. */
  reason?: string;
  /** Slack ts of the posted digest. */
  messageTs?: string;
  /**
   * Set when a delivered digest's chart was not attached as planned: why it is missing (`not_ready`,
   * `upload_failed`, …), or `unchecked` when the install lacks files:read to check it first.
   */
  chart?: string;
}

/**
 * How a subscription's runs appear: `post` a new message each run (absent = post); `update` one
 * message per day, edited in place by later runs of that day; `thread` one message whose replies are
 * the runs, the top message always showing the latest numbers.
 */
export type DeliveryStyle = "post" | "update" | "thread";

/**
 * What runs leave for the next one, kept on the record in short fields (see run-state.ts): the alert
 * state, the condition metric's recent values, and the message being edited or threaded.
 */
export interface RunState {
  alert?: {
    /** What the conversation was last told: the condition holds (`firing`) or not. */
    state: "firing" | "clear";
    /** Nothing told yet (`state` reads as clear): the first check is applied, its transition pending. */
    untold?: true;
    /** The newest period whose check was applied; older checks arriving late change nothing. */
    applied?: string;
    /** A transition decided by `period` whose post has not been confirmed yet. */
    pending?: { period: string; post: AlertPost };
    /** The episode told last: the period that fired it and the ts of its message. */
    episode?: { id: string; ts?: string };
    acknowledged?: Act;
    snoozed?: Snooze;
  };
  /** How often people marked the alert's messages useful or not (its feedback buttons). */
  feedback?: { useful: number; notUseful: number };
  /** The condition metric's values of the latest runs, oldest first, and the period of the newest. */
  history?: { period: string; values: number[] };
  /** The message later runs edit (update: `key` is the day) or reply under (thread: `key` is "t"). */
  message?: { key: string; ts: string };
}

/** One scheduled digest of one channel, or of one person's DMs. Several may post to the same channel. */
export interface Subscription {
  /** Short, url-safe, no ':'; unique within the workspace. */
  id: string;
  ref: WorkspaceRef;
  /** A channel (C…, G…), or the owner's DM with the app (D…) for a personal digest. */
  channelId: string;
  /** Slack user id of who set it up; told by DM when it pauses itself. */
  ownerId: string;
  schedule: Schedule;
  /** "HH:MM", 24-hour, in `tz`; unused by cron schedules. */
  time: string;
  /** IANA zone the schedule and the digest's range are computed in. */
  tz: string;
  /** Range in the command grammar (`last7d`, `lastweek`, …). */
  range: string;
  assetIds: string[];
  /**
   * Top-level asset groups (`payments` for everything under `payments / …`) kept as groups: each run
   * asks for the group's assets of that day, and a group no longer there stops the run with words
   * saying so. Absent = none.
   */
  assetGroups?: string[];
  scannerIds: string[];
  /** Display names of the filters, for lists; never used to query. */
  filterLabels: string[];
  /**
   * Post the drivers of the change (and the data-gap notices of every scanner and asset group) with
   * each digest. Absent means on: records stored before the option existed keep getting them.
   */
  drivers?: boolean;
  /**
   * How the trend and the drivers are shown (`native` blocks Slack draws, a `png` image, `off`).
   * Absent = the workspace's setting, native unless an admin chose otherwise.
   */
  chart?: ChartStyle;
  /** Canonical condition (`when violations up 10%`, see conditions.ts); absent = post every run. */
  condition?: string;
  /** `alert`: check the condition each run; one message per episode, edited as it changes (alerts.ts). */
  mode?: "alert";
  /** Absent = `post`. */
  style?: Exclude<DeliveryStyle, "post">;
  /** What earlier runs left (alert state, history, message being edited); written by the worker only. */
  runs?: RunState;
  status: SubscriptionStatus;
  /** Code or short text: why it is paused (`paused_by_user`, `is_archived`, `unauthorized`, …). */
  pausedReason?: string;
  /** ISO instant. */
  pausedAt?: string;
  /** ISO instant. */
  createdAt: string;
  lastDelivery?: LastDelivery;
  /** The pause reason the owner was last told about by DM, so each pause is told once. */
  ownerNotifiedReason?: string;
}

/** What a caller (slash command, modal) supplies to create a subscription. */
export interface SubscriptionInput {
  channelId: string;
  schedule: Schedule;
  /** Default "09:00". Ignored for cron schedules. */
  time?: string;
  tz: string;
  /** Default "last7d". */
  range?: string;
  assetIds?: string[];
  /** Asset groups, resolved at each run (see Subscription.assetGroups). */
  assetGroups?: string[];
  scannerIds?: string[];
  filterLabels?: string[];
  /** Default on (see Subscription.drivers). */
  drivers?: boolean;
  /** Absent = the workspace's setting (see Subscription.chart). */
  chart?: ChartStyle;
  /** Condition text as typed (`when violations > 500`); empty or absent = none. */
  condition?: string;
  mode?: "digest" | "alert";
  style?: DeliveryStyle;
}

/** Fields an update may change; channel moves are allowed. */
export type SubscriptionPatch = Partial<SubscriptionInput>;
