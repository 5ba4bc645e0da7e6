import { isAppError } from "../src/errors.ts";
import { isRangeToken, NAMED_RANGES } from "../src/insights/range-grammar.ts";
import { CHART_STYLES, type ChartStyle } from "../src/insights/types.ts";
import { conditionText, parseCondition } from "../src/subscriptions/conditions.ts";
import { readMonthDay } from "../src/subscriptions/month-day.ts";
import type { MonthDay } from "../src/subscriptions/types.ts";
import { didYouMean } from "../src/suggest.ts";
import { type Token, tokenize } from "./tokenize.ts";

/**
 * The `/insights` grammar, parsed into a typed command. Pure: ranges are recognised here
 * but resolved later against the caller's clock and timezone.
 */

export interface DigestFilters {
  /** Asset names or ids as typed (`payments / api`); resolved against the service's list later. */
  assets: string[];
  scanners: string[];
}

export type Frequency = "hourly" | "daily" | "weekdays" | "weekly" | "monthly" | "quarterly";
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface SubscribeArgs extends DigestFilters {
  frequency: Frequency;
  days: Weekday[];
  /** The day of a monthly or quarterly schedule (`1st`, `first mon`, `last workday`); absent = the 1st. */
  on?: MonthDay;
  /** HH:MM, 24-hour */
  time: string;
  tz?: string;
  range: string;
  /** Canonical condition (`when violations up 10%`), from the words after `when`. */
  condition?: string;
  /** `alert`: one message when the condition starts to hold, edited as it changes (the `alert` subcommand). */
  mode: "digest" | "alert";
  /** post (default), update (one message a day, edited) or thread (replies under one message). */
  style: "post" | "update" | "thread";
  /** `nodrivers`: leave out the drivers section (on by default; it costs a query per scanner and group). */
  drivers?: false;
  /** `chart:native|png|off`: how the trend and drivers are shown; absent = the workspace's setting. */
  chart?: ChartStyle;
}

export type Command =
  | ({ kind: "digest"; range: string } & DigestFilters)
  | { kind: "help" }
  | { kind: "connect" }
  | { kind: "disconnect" }
  | { kind: "status" }
  | { kind: "subscriptions" }
  | ({ kind: "subscribe"; interactive: boolean } & SubscribeArgs)
  /** `subscribe me …` / `alert me …`: a personal digest by DM, which any reader may set up. */
  | ({ kind: "subscribeMe"; interactive: boolean } & SubscribeArgs)
  | ({ kind: "export"; range: string } & DigestFilters)
  | { kind: "unsubscribe" | "pause" | "resume" | "send"; id: string }
  /** `settings`: the workspace's settings; `settings chart:<style|default>` changes the chart one. */
  | { kind: "settings"; chart?: ChartStyle | "default" }
  | {
      kind: "invalid";
      code: "unknown_command" | "bad_syntax" | "bad_condition";
      message: string;
      suggestion?: string;
    };

export const SUBCOMMANDS = [
  "help",
  "connect",
  "disconnect",
  "status",
  "subscribe",
  "alert",
  "export",
  "subscriptions",
  "unsubscribe",
  "pause",
  "resume",
  "send",
  "settings",
] as const;

/**
 * The common ranges (besides explicit dates and `lastNd`): suggestions offer them, and the bench's mix
 * draws from them. Every named range (`yesterday`, `lastquarter`, `ytd`, …) is suggested too.
 */
export const FIXED_RANGES = [
  "last7d",
  "last14d",
  "last30d",
  "last90d",
  "thisweek",
  "lastweek",
  "thismonth",
  "lastmonth",
];
const SUB_ID = /^[A-Za-z0-9_-]{1,40}$/;

function suggest(word: string): string | undefined {
  return didYouMean(word, [...SUBCOMMANDS, ...new Set([...FIXED_RANGES, ...NAMED_RANGES])]);
}

function unknownWord(word: string): Command {
  const s = suggest(word);
  const shown = word.length > 40 ? `${word.slice(0, 40)}…` : word;
  return {
    kind: "invalid",
    code: "unknown_command",
    message: `I don't know "${shown}".`,
    suggestion: s ?? "help",
  };
}

/** Reads range and `asset:`/`scanner:` words; returns an error for anything else (`keys` pass to `rest`). */
function readDigestWords(
  tokens: Token[],
  allowRange: boolean,
  keys: readonly string[] = [],
): { range?: string; filters: DigestFilters; error?: Command; rest: Token[] } {
  const filters: DigestFilters = { assets: [], scanners: [] };
  let range: string | undefined;
  const rest: Token[] = [];
  for (const t of tokens) {
    if (t.key === "asset" || t.key === "assets" || t.key === "scanner" || t.key === "scanners") {
      if (t.value === "") {
        return {
          filters,
          rest,
          error: {
            kind: "invalid",
            code: "bad_syntax",
            message: `\`${t.key}:\` needs a name, e.g. asset:"payments / api".`,
          },
        };
      }
      (t.key.startsWith("asset") ? filters.assets : filters.scanners).push(t.value);
    } else if (t.key && keys.includes(t.key)) {
      rest.push(t);
    } else if (t.key) {
      return {
        filters,
        rest,
        error: {
          kind: "invalid",
          code: "bad_syntax",
          message: `Unknown filter "${t.key}:". Use asset:"parent / child" or scanner:name.`,
        },
      };
    } else if (allowRange && isRangeToken(t.value)) {
      if (range) {
        return {
          filters,
          rest,
          error: {
            kind: "invalid",
            code: "bad_syntax",
            message: `Give one range, not "${range}" and "${t.value}".`,
          },
        };
      }
      range = t.value.toLowerCase();
    } else {
      rest.push(t);
    }
  }
  return { range, filters, rest };
}

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const TZ = /^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/;

const SUBSCRIBE_USAGE =
  'subscribe [me] [hourly|daily|weekdays|weekly [mon..sun]|monthly [day]|quarterly [day]] [HH:MM] [Area/City] [range] [asset:"…"] [post|update|thread] [nodrivers] [chart:native|png|off] [when <condition>]; a day is 1st…31st, first mon…last fri, or first|last workday';

/** `chart:<style>` as typed, or the sentence that says what it may be. */
function readChart(value: string, orDefault: boolean): ChartStyle | "default" | Command {
  const v = value.toLowerCase();
  if ((CHART_STYLES as readonly string[]).includes(v) || (orDefault && v === "default"))
    return v as ChartStyle | "default";
  return {
    kind: "invalid",
    code: "bad_syntax",
    message: `\`chart:\` is native (Slack draws it), png (an image) or off${orDefault ? ", or default" : ""}.`,
  };
}

/** The words after `when` as a canonical condition, or the error that says what is wrong with them. */
function readCondition(words: Token[]): { condition: string } | { error: Command } {
  try {
    return { condition: conditionText(parseCondition(words.map((t) => t.raw).join(" "))) };
  } catch (err) {
    const message = isAppError(err) ? err.message : "That is not a condition.";
    return { error: { kind: "invalid", code: "bad_condition", message } };
  }
}

/**
 * `subscribe …` and `alert …` (with `me` first for a personal digest). Everything after `when` is
 * the condition; an alert needs one and checks hourly unless told otherwise.
 */
function parseSubscribe(all: Token[], mode: "digest" | "alert"): Command {
  const personal = all[0]?.value.toLowerCase() === "me" && !all[0]?.key;
  const words = personal ? all.slice(1) : all;
  const at = words.findIndex((t) => !t.key && t.value.toLowerCase() === "when");
  const tokens = at < 0 ? words : words.slice(0, at);
  let condition: string | undefined;
  if (at >= 0) {
    const read = readCondition(words.slice(at + 1));
    if ("error" in read) return read.error;
    condition = read.condition;
  }
  if (mode === "alert" && !condition)
    return {
      kind: "invalid",
      code: "bad_condition",
      message:
        "An alert needs a condition to watch, e.g. `alert when violations > 500` or `alert me daily when findings up 20%`.",
    };
  const { range, filters, error, rest } = readDigestWords(tokens, true, ["chart"]);
  if (error) return error;
  const args: SubscribeArgs = {
    frequency: mode === "alert" ? "hourly" : "weekly",
    days: [],
    time: mode === "alert" ? "00:00" : "09:00",
    range: range ?? "last7d",
    mode,
    style: "post",
    ...(condition ? { condition } : {}),
    ...filters,
  };
  const lower = rest.map((t) => (t.key ? "" : t.value.toLowerCase()));
  // A bare number is a day of the month only beside monthly or quarterly ("daily 9" is not the 9th).
  const calendar = lower.includes("monthly") || lower.includes("quarterly");
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i] as Token;
    const w = lower[i] as string;
    const day = w.slice(0, 3) as Weekday;
    const monthDay = t.key || (!calendar && /^\d+$/.test(w)) ? null : readMonthDay(lower, i);
    if (t.key === "chart") {
      const chart = readChart(t.value, false);
      if (typeof chart !== "string") return chart;
      if (chart !== "default") args.chart = chart;
    } else if (FREQUENCIES.has(w)) args.frequency = w === "workdays" ? "weekdays" : (w as Frequency);
    else if (monthDay) {
      if (args.on)
        return {
          kind: "invalid",
          code: "bad_syntax",
          message: `Give one day of the month, not two. Use: ${SUBSCRIBE_USAGE}.`,
        };
      args.on = monthDay.on;
      i += monthDay.len - 1;
    } else if (w === "post" || w === "update" || w === "thread") args.style = w;
    else if (w === "nodrivers" || w === "no-drivers") args.drivers = false;
    else if (WEEKDAYS.includes(day) && (w.length === 3 || `${day}day`.startsWith(w) || w.endsWith("day"))) {
      if (!args.days.includes(day)) args.days.push(day);
    } else if (TIME.test(w)) {
      const m = TIME.exec(w) as RegExpExecArray;
      args.time = `${(m[1] as string).padStart(2, "0")}:${m[2]}`;
    } else if (w === "utc" || TZ.test(t.value)) {
      args.tz = w === "utc" ? "UTC" : t.value;
    } else {
      return {
        kind: "invalid",
        code: "bad_syntax",
        message: `I can't read "${t.value}" in a subscription. Use: ${SUBSCRIBE_USAGE}.`,
      };
    }
  }
  const problem = scheduleProblem(args);
  if (problem) return { kind: "invalid", code: "bad_syntax", message: problem };
  if (args.frequency === "weekly" && args.days.length === 0) args.days = ["mon"];
  const interactive = mode === "digest" && words.length === 0;
  return { kind: personal ? "subscribeMe" : "subscribe", interactive, ...args };
}

const FREQUENCIES: ReadonlySet<string> = new Set([
  "hourly",
  "daily",
  "weekdays",
  "workdays",
  "weekly",
  "monthly",
  "quarterly",
]);

/** What is wrong with the days said for the frequency, or undefined. */
function scheduleProblem(args: SubscribeArgs): string | undefined {
  const f = args.frequency;
  if (args.on && f !== "monthly" && f !== "quarterly")
    return "A day of the month (1st, first mon, last workday) goes with monthly or quarterly, e.g. `subscribe monthly 1st 09:00`.";
  if (f === "weekly" || args.days.length === 0) return undefined;
  if (f === "monthly" || f === "quarterly")
    return `Say which ${args.days[0] === undefined ? "" : `${args.days[0]} `}of the month: \`${f} first ${args.days[0]}\`, \`${f} last ${args.days[0]}\` (first to fourth, or last).`;
  const runs: Record<string, string> = {
    hourly: "An hourly subscription runs every hour",
    daily: "A daily subscription runs every day",
    weekdays: "A weekdays subscription runs Monday to Friday",
  };
  return `${runs[f]}; leave out the weekdays, or use weekly.`;
}

/** `settings` alone shows them; `settings chart:<native|png|off|default>` changes the chart setting. */
function parseSettings(rest: Token[]): Command {
  const [first, ...more] = rest;
  if (!first) return { kind: "settings" };
  if (first.key !== "chart" || more.length > 0)
    return {
      kind: "invalid",
      code: "bad_syntax",
      message: "Use `settings` to see this workspace's settings, or `settings chart:native|png|off|default`.",
    };
  const chart = readChart(first.value, true);
  return typeof chart === "string" ? { kind: "settings", chart } : chart;
}

/** Parses the text after `/insights`. Never throws; problems come back as `kind: "invalid"`. */
export function parseCommand(text: string): Command {
  const tokens = tokenize(text);
  const first = tokens[0];
  if (!first) return { kind: "digest", range: "last7d", assets: [], scanners: [] };
  const word = first.key ? "" : first.value.toLowerCase();
  const rest = tokens.slice(1);
  switch (word) {
    case "help":
    case "connect":
    case "disconnect":
    case "status":
    case "subscriptions":
      return { kind: word };
    case "settings":
      return parseSettings(rest);
    case "subscribe":
      return parseSubscribe(rest, "digest");
    case "alert":
      return parseSubscribe(rest, "alert");
    case "export": {
      const read = readRangeAndFilters(rest);
      return "kind" in read ? read : { kind: "export", ...read };
    }
    case "unsubscribe":
    case "pause":
    case "resume":
    case "send": {
      const id = rest[0]?.value;
      if (!id || rest.length > 1 || !SUB_ID.test(id)) {
        return {
          kind: "invalid",
          code: "bad_syntax",
          message: `Use \`${word} <id>\`; \`/insights subscriptions\` lists the ids.`,
        };
      }
      return { kind: word, id };
    }
  }
  const read = readRangeAndFilters(tokens);
  return "kind" in read ? read : { kind: "digest", ...read };
}

/** A range (default last7d) and filters, nothing else: the digest's words, and `export`'s. */
function readRangeAndFilters(tokens: Token[]): ({ range: string } & DigestFilters) | Command {
  const { range, filters, error, rest } = readDigestWords(tokens, true);
  if (error) return error;
  const stray = rest[0];
  if (stray) return unknownWord(stray.value);
  return { range: range ?? "last7d", ...filters };
}
