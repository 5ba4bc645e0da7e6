import type { IsoDay } from "../analytics/types.ts";
import { todayIn } from "../insights/dayjs.ts";
import { daysInclusive } from "../insights/days.ts";
import { buildRange } from "../insights/ranges.ts";
import { addDays, mondayOf, quarterDays, quarterOf, startOfMonth, yearOf } from "./calendar.ts";
import { comparisonAt, pairAt, resolveComparison, type SaidComparison } from "./comparisons.ts";
import { metricAt } from "./metrics.ts";
import { type PeriodHit, period, periodAt, periodLabel } from "./periods.ts";
import { slashText } from "./request.ts";
import { calendarRefusal, conditionAt, readSchedule, scheduleOf, vagueChangeAt } from "./schedule.ts";
import { Sentence } from "./sentence.ts";
import { describe, nameIndex, subjectAt } from "./subjects.ts";
import { MAX_QUESTION_CHARS, questionLength, words } from "./text.ts";
import type {
  AskContext,
  AskIntent,
  AskMetric,
  AskProblem,
  AskReading,
  DayRange,
  ManageAction,
  Subjects,
} from "./types.ts";
import { ABBREVIATIONS, correction, DIGEST_CUES, FILLERS, KNOWN, WEEKDAYS } from "./vocabulary.ts";
import { isZoneWord } from "./zones.ts";

/**
 * Reads a question in plain English into the request the slash command builds (range, filters,
 * what to show) plus what a question adds (a named comparison, a metric, a proposed schedule).
 * Pure and deterministic: time, zone and the account's names come in as arguments. Every word is
 * either claimed by a rule or reported back as not understood; such a question is answered with
 * examples, never with numbers for a guess.
 *
 * @example readQuestion("why did violations go up in payments last week?", ctx).intent // "drivers"
 */
export function readQuestion(text: string, ctx: AskContext): AskReading {
  const today = todayIn(ctx.now, ctx.tz);
  const limit = ctx.maxChars ?? MAX_QUESTION_CHARS;
  const chars = questionLength(text, ctx.botUserId);
  if (chars > limit) return tooLong(today, chars, limit);
  const index = nameIndex(ctx.assets, ctx.scanners);
  const typed = words(text, ctx.botUserId);
  const corrected = typed.map((w, i) => {
    if (index.words.has(w) || KNOWN.has(w) || FILLERS.has(w) || isZoneWord(w)) return w;
    // "sub me to …": subscribe, only where it can mean that ("sub-group" is something else).
    if (w === "sub") return i === 0 || ["me", "to", "us"].includes(typed[i + 1] ?? "") ? "subscribe" : w;
    return (Object.hasOwn(ABBREVIATIONS, w) ? ABBREVIATIONS[w] : undefined) ?? correction(w) ?? w;
  });
  const s = new Sentence(corrected, typed);
  const cues = readCues(s);
  const problems: AskProblem[] = [];

  // Conditions and schedules first: their numbers ("above 500", "at 9") are not periods.
  const alert = readAlert(s, problems);
  const sending = claimAll(s, SEND_WORDS);
  const schedule = readSchedule(s, sending);
  // "post a weekly digest to #security", "subscribe this channel": a channel's schedule, which
  // questions do not set up (they propose personal ones); read so the answer can say how.
  const channel = schedule !== null || sending || alert !== undefined ? claimChannel(s) : false;
  // "send @alice the weekly digest": someone else named as who receives it.
  const someoneElse = (schedule !== null || sending) && claimAll(s, ["@someone"]);
  // "daily" alone is a way of looking at the numbers, not a schedule, unless something is to be sent
  // or the sentence names a thing that is sent ("daily digest please", "a weekly report"); "show me the
  // daily digest" still asks to see numbers now.
  const sentThing = typed.some((w) => SENT_THINGS.has(w)) && !typed.some((w) => SHOW_WORDS.has(w));
  // An alert's condition makes "hourly" or "daily" how often it is checked.
  // "subscribe me to payments": a subscription asked for by name, on the command's default schedule.
  const subscribing = typed.includes("subscribe") && alert === undefined;
  const scheduled =
    (schedule !== null && (schedule.strong || sending || sentThing || alert !== undefined)) || subscribing;

  // "compare October to September", "between October and September": both periods at once.
  let said: SaidComparison | undefined;
  let implied: "week" | "month" | "quarter" | "year" | undefined;
  const periods: PeriodHit[] = [];
  scan(s, (i) => {
    const pair = pairAt(s, i, today);
    if (!pair || said) return 0;
    periods.push({ len: pair.len, range: pair.main });
    said = pair.said;
    return pair.len;
  });
  // Comparisons before periods: "vs last month" is not the period asked about.
  scan(s, (i) => {
    const c = comparisonAt(s, i, today);
    if (!c || said) return 0;
    said = c.said;
    implied = c.impliedMain;
    return c.len;
  });
  scan(s, (i) => {
    if (periods.length > 0) return 0;
    const p = periodAt(s, i, today);
    if (p) periods.push(p);
    return p?.len ?? 0;
  });
  // Names of several words before the words inside them mean anything else ("helm charts", "status page").
  const subjects: Subjects = { assets: [], groups: [], scanners: [] };
  const nameAt = (min: number) => (i: number) => {
    const hit = subjectAt(s, i, index, min);
    if (!hit) return 0;
    if (hit.kind === "ambiguous")
      problems.push({ kind: "ambiguous", typed: hit.typed, suggestions: hit.suggestions });
    else if (hit.kind === "group") pushUnique(subjects.groups, hit.name);
    else if (hit.kind === "asset") pushOption(subjects.assets, hit.option);
    else pushOption(subjects.scanners, hit.option);
    return hit.len;
  };
  scan(s, nameAt(2));
  const metrics: AskMetric[] = [];
  scan(s, (i) => {
    const m = metricAt(s, i);
    if (m && !metrics.includes(m.metric)) metrics.push(m.metric);
    return m?.len ?? 0;
  });
  const intentWords = readIntentWords(s);
  if (schedule && !scheduled && schedule.bare.includes("daily")) intentWords.add("trend");
  scan(s, nameAt(1));
  const fillers = s.unclaimed().filter((u) => FILLERS.has(u.word));
  const digestCue = fillers.some((u) => DIGEST_CUES.has(u.word));
  for (const u of fillers) s.claim(u.i);
  const leftover = s.unclaimed().map((u) => u.typed);
  const excluding = s.unclaimed().some((u) => leavesOut(s, u.i));
  if (schedule && !scheduled) leftover.push(...schedule.bare.filter((w) => w !== "daily"));

  // The period asked about: said, implied by "week over week", or the slash command's default.
  const main = periods[0];
  let range: DayRange;
  let rangeSaid = true;
  if (main && "problem" in main) {
    problems.push({ kind: "bad_range", message: main.problem });
    range = defaultRange(today);
  } else if (main) range = main.range;
  else if (implied) range = impliedRange(implied, today);
  else {
    range = defaultRange(today);
    rangeSaid = false;
  }

  const intent = decideIntent({
    cues,
    alert: alert !== undefined,
    schedule: scheduled,
    sending,
    intentWords,
    signals:
      digestCue ||
      metrics.length > 0 ||
      periods.length > 0 ||
      said !== undefined ||
      subjects.assets.length + subjects.groups.length + subjects.scanners.length > 0,
  });
  // Alerts and schedules run on a range of their own and compare each run with the period before it,
  // whatever is named (their notes say so): never on fixed days.
  const runsOnItsOwn = intent === "alert" || intent === "subscribe";
  // "how did we do vs yesterday": with no period of its own, a question whose comparison overlaps the
  // default week asks about the days since the compared one (today), when they are no more than it.
  if (!rangeSaid && !runsOnItsOwn && said?.kind === "period" && said.range.to >= range.from) {
    const since = sinceCompared(said.range, today);
    if (since) range = since;
  }
  const reading: AskReading = { intent, metrics, range, rangeSaid, subjects, notes: [] };

  if (said) {
    if (said.kind === "problem") problems.push({ kind: "bad_range", message: said.problem });
    else {
      const r = buildRange(range.spec, range.from, range.to, ctx.tz);
      const resolved = resolveComparison(said, range, { from: r.previousFrom, to: r.previousTo }, today);
      if ("problem" in resolved) problems.push({ kind: "bad_range", message: resolved.problem });
      // Only a question asked now is refused for periods that overlap.
      else if (!runsOnItsOwn && resolved.range.from <= range.to && range.from <= resolved.range.to)
        problems.push({
          kind: "bad_range",
          message: `The two periods overlap (${periodLabel(range)} and ${periodLabel(resolved.range)}): compare with one that ends before the other starts.`,
        });
      else {
        const same = resolved.range.from === r.previousFrom && resolved.range.to === r.previousTo;
        reading.comparison = { ...resolved.range, how: same ? "previous" : "second_query" };
      }
    }
  }
  if (runsOnItsOwn) {
    const mode = intent === "alert" ? "alert" : "digest";
    if (schedule?.twice)
      problems.push({
        kind: "bad_condition",
        message:
          "A schedule runs once an hour, once a day, or on the weekdays you name: say which, e.g. “every Monday and Thursday at 9”.",
      });
    else if (schedule?.every)
      problems.push({
        kind: "bad_condition",
        message: `Schedules run every hour, every day, or on the weekdays you name; “${schedule.every}” is not something I can set up: say which weekdays, e.g. “every Monday”.`,
      });
    else if (schedule?.frequency === "monthly")
      problems.push({
        kind: "bad_condition",
        message: calendarRefusal(schedule, rangeSaid ? range.spec : undefined),
      });
    reading.schedule = scheduleOf(schedule, mode);
    if (alert) reading.condition = alert;
    if (channel) problems.unshift({ kind: "bad_condition", message: channelMessage(reading) });
    // "send @alice the weekly digest": only the person asking can be subscribed by a question.
    else if (someoneElse)
      problems.unshift({
        kind: "bad_condition",
        message:
          "I set up digests for the person who asks, by DM: they can ask me themselves, or an admin can schedule a channel they are in with `/insights subscribe`.",
      });
    if (intent === "alert" && !alert && !problems.some((p) => p.kind === "bad_condition"))
      problems.push({
        kind: "bad_condition",
        message: "An alert needs something to watch, e.g. “tell me when violations go above 500”.",
      });
    // "email me a csv every Monday": scheduled digests are messages; a CSV comes when asked for.
    if (intentWords.has("export"))
      problems.push({
        kind: "bad_condition",
        message:
          "A schedule sends the digest as a message, not a CSV file; ask for the file when you need it, e.g. “export last week as csv”.",
      });
    if (rangeSaid && !ROLLING.test(range.spec))
      problems.push({
        kind: "bad_condition",
        message: `A schedule needs a rolling period such as the last 7 days, last week or last month, not ${periodLabel(range)}.`,
      });
  } else if (channel)
    // "send last week's findings to #appsec": the answer comes here; it does not post elsewhere.
    problems.unshift({
      kind: "bad_condition",
      message:
        "I answer here, in this conversation, and post nowhere else. For the numbers in a channel, run `/insights` there with the same request.",
    });
  // "payments vs platform": a digest would sum the two; it cannot set one against the other.
  const named = subjectNames(subjects);
  if (!said && named.length >= 2 && typed.some((w) => COMPARE_WORDS.has(w)))
    problems.unshift({ kind: "compare_subjects", names: named });
  addNotes(reading);
  // "stop sending me the daily digest", "pause my alerts": about what is sent, not about numbers.
  const manage = metrics.length === 0 ? manageAction(leftover) : undefined;
  if (manage) problems.unshift({ kind: "manage", action: manage });
  else if (excluding)
    problems.unshift({
      kind: "bad_condition",
      message:
        "I can narrow the numbers to the assets and scanners you name, not leave some out: name the ones to include, e.g. “payments api and payments web”.",
    });
  else if (leftover.length > 0) problems.unshift({ kind: "unread", words: leftover });
  const problem = problems[0];
  return problem ? { ...reading, problem } : reading;
}

/**
 * "except SAST", "without the ledger", "but not fixes": an unread word at `i` that leaves out a name
 * or a number the reader did place. Digests narrow to what is named; nothing subtracts.
 */
function leavesOut(s: Sentence, i: number): boolean {
  const w = s.words[i];
  let k = i + 1;
  if (w === "but" && s.free(k) === "not") k++;
  else if (w !== "except" && w !== "without" && w !== "excluding" && w !== "minus") return false;
  // Days left out ("except on Mondays") are a schedule's words, read there or not at all.
  if (s.words[k] === "on" || WEEKDAYS.includes(s.words[k] as never)) return false;
  if (s.words[k] === "the" || s.words[k] === "for" || s.words[k] === "in") k++;
  return s.isClaimed(k);
}

/** Words that ask to stop, pause or resume what is sent (read only among the words nothing else claimed). */
const MANAGE_WORDS: Readonly<Record<string, ManageAction>> = {
  stop: "stop",
  unsubscribe: "stop",
  unsub: "stop",
  cancel: "stop",
  disable: "stop",
  delete: "stop",
  remove: "stop",
  pause: "pause",
  mute: "pause",
  snooze: "pause",
  silence: "pause",
  resume: "resume",
  unpause: "resume",
  unmute: "resume",
  restart: "resume",
};

/** The first stop, pause or resume word left over ("turn off" counts as stop), if any. */
function manageAction(leftover: readonly string[]): ManageAction | undefined {
  const typed = leftover.map((w) => w.toLowerCase());
  for (let i = 0; i < typed.length; i++) {
    const w = typed[i] as string;
    if (Object.hasOwn(MANAGE_WORDS, w)) return MANAGE_WORDS[w];
    if (w === "turn" && typed[i + 1] === "off") return "stop";
  }
  return undefined;
}

/** Ranges a schedule can repeat: the slash command's rolling forms. */
const ROLLING = /^(last\d+d|thisweek|lastweek|thismonth|lastmonth)$/;

/** A question refused whole for its length: nothing of it is read, so nothing of it is answered. */
function tooLong(today: IsoDay, chars: number, limit: number): AskReading {
  return {
    intent: "help",
    metrics: [],
    range: defaultRange(today),
    rangeSaid: false,
    subjects: { assets: [], groups: [], scanners: [] },
    notes: [],
    problem: { kind: "too_long", chars, limit },
  };
}

function defaultRange(today: IsoDay): DayRange {
  return { spec: "last7d", from: addDays(today, -6), to: today };
}

/** The days after a compared period up to today, when there are some and no more than the compared period's. */
function sinceCompared(c: DayRange, today: IsoDay): DayRange | undefined {
  if (c.to >= today) return undefined;
  const from = addDays(c.to, 1);
  if (daysInclusive(from, today) > daysInclusive(c.from, c.to)) return undefined;
  const p = period(from, today, today);
  return "range" in p ? p.range : undefined;
}

/** "week over week" without a period: the last whole unit. */
function impliedRange(unit: "week" | "month" | "quarter" | "year", today: IsoDay): DayRange {
  const r = (from: IsoDay, to: IsoDay, spec?: string) => {
    const p = period(from, to, today, spec);
    return "range" in p ? p.range : defaultRange(today);
  };
  switch (unit) {
    case "week":
      return r(addDays(mondayOf(today), -7), addDays(mondayOf(today), -1), "lastweek");
    case "month": {
      const end = addDays(startOfMonth(today), -1);
      return r(startOfMonth(end), end, "lastmonth");
    }
    case "quarter": {
      const q = quarterOf(today);
      const { from, to } = q === 1 ? quarterDays(yearOf(today) - 1, 4) : quarterDays(yearOf(today), q - 1);
      return r(from, to);
    }
    case "year":
      return r(`${today.slice(0, 4)}-01-01`, today);
  }
}

/** Calls `at(i)` at every free word; `at` returns how many words it claimed (0: none). */
function scan(s: Sentence, at: (i: number) => number): void {
  for (let i = 0; i < s.length; i++) {
    if (s.isClaimed(i)) continue;
    const n = at(i);
    if (n > 0) {
      s.claim(i, n);
      i += n - 1;
    }
  }
}

function pushUnique(list: string[], v: string) {
  if (!list.includes(v)) list.push(v);
}

function pushOption(
  list: { value: string; displayValue: string }[],
  v: { value: string; displayValue: string },
) {
  if (!list.some((o) => o.value === v.value)) list.push(v);
}

/** Words that set two things against each other. */
const COMPARE_WORDS = new Set(["compare", "compared", "comparing", "comparison", "vs", "versus", "against"]);

/** What a schedule sends: said with "daily" or "weekly", they make it a schedule. */
const SENT_THINGS = new Set([
  "digest",
  "digests",
  "report",
  "reports",
  "summary",
  "summaries",
  "recap",
  "recaps",
]);

/** Asking to see something now, not to have it sent. */
const SHOW_WORDS = new Set(["show", "see", "view", "display", "look"]);

const SEND_WORDS = ["send", "post", "deliver", "remind", "subscribe", "schedule", "dm", "message", "email"];

/**
 * Claims a channel named as where to send ("to #security", "in this channel"); true when one was.
 * "here" is not one: in the app's DM it is that DM.
 */
function claimChannel(s: Sentence): boolean {
  let found = false;
  for (let i = 0; i < s.length; i++) {
    const len = Math.max(
      s.match(i, "to|in|into|for|on? #channel"),
      s.match(i, "to|in|into|for|on? this|the|our|that channel"),
    );
    if (len > 0) {
      s.claim(i, len);
      found = true;
    }
  }
  return found;
}

/** What to say to a channel's schedule asked in words: the channel's own command, with what was understood. */
function channelMessage(r: AskReading): string {
  // A channel's alert is a subscription with a condition: the same words after "subscribe".
  const personal = slashText(r)?.replace(/^(subscribe|alert) me /, "");
  const how = personal
    ? `runs \`/insights subscribe ${personal}\` in that channel (or \`/insights subscribe\` for the form)`
    : "runs `/insights subscribe` in that channel for the form";
  return `I set up digests and alerts for you alone, by DM. For a channel, an admin ${how}.`;
}

function claimAll(s: Sentence, list: readonly string[]): boolean {
  let found = false;
  for (let i = 0; i < s.length; i++) {
    if (s.free(i) !== undefined && list.includes(s.words[i] as string)) {
      s.claim(i);
      found = true;
    }
  }
  return found;
}

const ALERT_VERBS = ["alert", "alerts", "notify", "tell", "ping", "warn", "message", "dm", "email", "watch"];

/** The words that open a condition ("when", "if", "as soon as") at `i`, or -1. */
const conditionMarker = (s: Sentence, i: number) =>
  Math.max(s.match(i, "when|if|once|whenever"), s.match(i, "as soon as"));

/** "tell me when violations go above 500": the condition's canonical text, claiming its words. */
function readAlert(s: Sentence, problems: AskProblem[]): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const marker = conditionMarker(s, i);
    if (marker <= 0) continue;
    // A subject may come between ("when payments violations go up"): those words are left for the names.
    let c: ReturnType<typeof conditionAt> = null;
    let skip = 0;
    for (; skip <= 3 && !c; skip++) c = conditionAt(s, i + marker + skip);
    if (!c) continue;
    skip--;
    s.claim(i, marker);
    const start = i + marker + skip;
    const hole = "hole" in c ? c.hole : undefined;
    if (hole) {
      s.claim(start, hole.at - start);
      s.claim(hole.at + hole.n, start + c.len - hole.at - hole.n);
    } else s.claim(start, c.len);
    const verb = s.find(ALERT_VERBS);
    if (verb >= 0) s.claim(verb);
    const know = s.match(Math.max(0, verb), "let me|us know");
    if (know > 0) s.claim(verb, know);
    for (let k = 0; k < s.length; k++) if (s.match(k, "let me|us know") === 3) s.claim(k, 3);
    if ("problem" in c) {
      // The rest of the sentence is that condition's: refuse it whole, not word by word.
      s.claim(i + marker + skip, s.length);
      problems.push({ kind: "bad_condition", message: c.problem });
      return undefined;
    }
    return c.condition;
  }
  // "alert me when violations go up": an alert asked for, but not by how much.
  if (s.find(ALERT_VERBS) < 0) return undefined;
  for (let i = 0; i < s.length; i++) {
    const marker = conditionMarker(s, i);
    if (marker <= 0) continue;
    for (let skip = 0; skip <= 3; skip++) {
      if (vagueChangeAt(s, i + marker + skip) === 0) continue;
      s.claim(i, s.length - i);
      problems.push({
        kind: "bad_condition",
        message: "Say by how much, e.g. “when violations go up by 10%” or “when violations go above 500”.",
      });
      return undefined;
    }
  }
  return undefined;
}

interface Cues {
  help: boolean;
}

/** Phrases that ask for help, and alert words said without a condition. */
function readCues(s: Sentence): Cues {
  const cues: Cues = { help: false };
  const help = [
    "what can you do|tell",
    "what can|does this|the bot|app do",
    "what can i ask you?",
    "what|which questions|things can|could|may i ask|say|type you?",
    "what|which kind|kinds|sort|sorts of questions|things i? can|could|may i? ask|say|type to? you?",
    "what do you know",
    "how do|can i use this|you|it?",
    "how does this|it work",
    "who|what are you",
    "help|examples|example|commands|usage|capabilities",
    "any? tips|hints|suggestions",
    "on|about|for? what i? to|should|can i? ask|say|type",
  ];
  for (let i = 0; i < s.length; i++) {
    for (const p of help) {
      const len = s.match(i, p);
      if (len > 0) {
        s.claim(i, len);
        cues.help = true;
      }
    }
    // "thank you so much": courtesy, whose "much" does not ask for numbers. With nothing else asked
    // it gets the examples (as "thanks" does); before a request, the request is answered.
    const thanks = s.match(i, "thanks|thank you? so|very much");
    if (thanks > 0) s.claim(i, thanks);
  }
  return cues;
}

type IntentWord = "drivers" | "trend" | "export" | "alert" | "notify";

const INTENT_PATTERNS: [string, IntentWord][] = [
  ["what has|is? changed", "drivers"],
  // "who's responsible": which assets and scanners, the drivers; "who fixed …" asks about people and stays unread.
  ["who is|are|was|were? responsible|behind|driving|causing", "drivers"],
  ["break|broken down", "drivers"],
  ["come|came from", "drivers"],
  [
    "which|what team|teams|group|groups|asset|assets|scanner|scanners|service|services|repo|repos|project|projects",
    "drivers",
  ],
  // "top 5 assets", "the worst teams": who contributes most, what the drivers list.
  [
    "top|worst|biggest|noisiest #? team|teams|group|groups|asset|assets|scanner|scanners|service|services|repo|repos|project|projects|offenders|contributors",
    "drivers",
  ],
  [
    "by|per team|teams|group|groups|asset|assets|scanner|scanners|service|services|repo|repos|project|projects",
    "drivers",
  ],
  [
    "why|reason|reasons|cause|causes|caused|causing|driver|drivers|driving|drove|explain|explanation|behind|breakdown|contributed|contributing|contributor|contributors|responsible|culprit",
    "drivers",
  ],
  ["over time", "trend"],
  ["day by day", "trend"],
  ["each|per day", "trend"],
  [
    "trend|trends|trending|trendline|chart|charts|graph|graphs|plot|sparkline|timeline|evolution|evolved",
    "trend",
  ],
  ["export|exported|csv|download|spreadsheet|excel|xlsx|file|dump", "export"],
  ["as a file", "export"],
  ["alert|alerts|warn", "alert"],
  // Words that only say "let me know": with a schedule and no condition, a digest sent on it.
  ["notify|notification|notifications|ping", "notify"],
];

function readIntentWords(s: Sentence): Set<IntentWord> {
  const found = new Set<IntentWord>();
  scan(s, (i) => {
    for (const [pattern, intent] of INTENT_PATTERNS) {
      const len = s.match(i, pattern);
      if (len > 0) {
        found.add(intent);
        return len;
      }
    }
    return 0;
  });
  return found;
}

function decideIntent(o: {
  cues: Cues;
  alert: boolean;
  schedule: boolean;
  sending: boolean;
  intentWords: Set<IntentWord>;
  signals: boolean;
}): AskIntent {
  if (o.alert || o.intentWords.has("alert")) return "alert";
  // "ping me every morning with findings": a digest on a schedule; "notify me" alone, an alert to complete.
  if (o.intentWords.has("notify") && !o.schedule) return "alert";
  if (o.schedule && (o.sending || !o.intentWords.has("trend"))) return "subscribe";
  if (o.intentWords.has("export")) return "export";
  if (o.intentWords.has("drivers")) return "drivers";
  if (o.intentWords.has("trend")) return "trend";
  if (o.cues.help) return "help";
  return o.signals ? "digest" : "help";
}

/** What the answer must say about how it was computed. */
function addNotes(r: AskReading): void {
  const c = r.comparison;
  if (r.intent === "drivers" && c && c.how !== "previous")
    r.notes.push(
      `Why it changed breaks down the change against the period just before; the totals compare with ${periodLabel(c)}.`,
    );
  if (r.intent === "export" && c) r.notes.push(`The CSV holds the days of ${periodLabel(r.range)} only.`);
  if (r.intent === "subscribe" && c)
    r.notes.push("A scheduled digest compares each period with the one just before it.");
  if (r.intent === "alert" && c && c.how !== "previous")
    r.notes.push(
      `An alert compares each run's period with the one just before it, not with ${periodLabel(c)}.`,
    );
}

/** How the reading names its subjects: `payments/*, SAST`; empty when none. */
export function subjectNames(s: Subjects): string[] {
  return [
    ...s.groups.map((name) => describe({ kind: "group", name })),
    ...s.assets.map((option) => describe({ kind: "asset", option })),
    ...s.scanners.map((option) => describe({ kind: "scanner", option })),
  ];
}
