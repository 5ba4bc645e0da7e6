import type { IsoDay } from "../analytics/types.ts";
import { daysInclusive } from "../insights/days.ts";
import { buildRange } from "../insights/ranges.ts";
import { countsFromEnd } from "../subscriptions/month-day.ts";
import { addDays, mondayOf, quarterDays, quarterOf, startOfMonth, yearOf } from "./calendar.ts";
import { period, periodLabel } from "./period-core.ts";
import { slashText } from "./request.ts";
import { alertOverSpan } from "./rules/alerts.ts";
import { resolveComparison } from "./rules/comparisons.ts";
import type { Found, OverUnit } from "./rules/found.ts";
import { decideIntent } from "./rules/intents.ts";
import { manageAction } from "./rules/manage.ts";
import { rollingRange } from "./rules/periods-calendar.ts";
import { scheduleOf, whichWeekdayRefusal } from "./rules/schedules.ts";
import { SENT_THINGS, SHOW_WORDS } from "./rules/sending.ts";
import type { Sentence } from "./sentence.ts";
import { describe } from "./subjects.ts";
import type { AskProblem, AskReading, AskSchedule, DayRange, Subjects } from "./types.ts";
import { WEEKDAYS } from "./vocabulary.ts";

/**
 * The reading, decided from what the passes found: the period asked about (said, implied, or the
 * slash command's default), what is wanted, the comparison's days, and whatever makes the question
 * one to refuse with examples. Every word a pass did not read is one such reason.
 */
export function decide(s: Sentence, found: Found, today: IsoDay, tz: string): AskReading {
  const typed = s.typed;
  const problems: AskProblem[] = [...found.problems];
  const { schedule, sending, subjects, metrics } = found;
  let said = found.said;
  const alert = found.condition;
  // "daily" alone is a way of looking at the numbers, not a schedule, unless something is to be sent
  // or the sentence names a thing that is sent ("daily digest please", "a weekly report"); "show me the
  // daily digest" still asks to see numbers now.
  const sentThing = typed.some((w) => SENT_THINGS.has(w)) && !typed.some((w) => SHOW_WORDS.has(w));
  // "subscribe me to payments": a subscription asked for by name, on the command's default schedule.
  const subscribing = s.words.includes("subscribe") && alert === undefined;
  // An alert's condition makes "hourly" or "daily" how often it is checked.
  const scheduled =
    (schedule !== null && (schedule.strong || sending || sentThing || alert !== undefined)) || subscribing;
  if (schedule && !scheduled && schedule.bare.includes("daily")) found.intentWords.add("trend");

  const leftover = s.unclaimed().map((u) => u.typed);
  const excluding = s.unclaimed().some((u) => leavesOut(s, u.i));
  if (schedule && !scheduled) leftover.push(...schedule.bare.filter((w) => w !== "daily"));

  // The period asked about: said, implied by "week over week", or the slash command's default.
  const main = found.periods[0];
  let range: DayRange;
  let rangeSaid = true;
  if (main && "problem" in main) {
    problems.push({ kind: "bad_range", message: main.problem });
    range = defaultRange(today);
  } else if (main) range = main.range;
  else if (found.implied) range = impliedRange(found.implied, today);
  else {
    range = defaultRange(today);
    rangeSaid = false;
  }

  const intent = decideIntent({
    help: found.help,
    alert: alert !== undefined,
    schedule: scheduled,
    sending,
    intentWords: found.intentWords,
    signals:
      found.digestCue ||
      metrics.length > 0 ||
      found.periods.length > 0 ||
      said !== undefined ||
      subjects.assets.length + subjects.groups.length + subjects.scanners.length > 0,
  });
  // "up 10% week over week" in an alert: the condition's own comparison, over that unit's rolling
  // span; it names no second period.
  if (intent === "alert" && found.implied) {
    said = undefined;
    const otherSpan = main !== undefined || found.conditionRange !== undefined;
    const span = alertOverSpan(found.implied, alert, otherSpan);
    if ("problem" in span) problems.push({ kind: "bad_condition", message: span.problem });
    else range = rollingRange(span.spec, today) ?? range;
  }
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
  if (found.readAs.length > 0) reading.readAs = found.readAs;

  if (said) {
    if (said.kind === "problem") problems.push({ kind: "bad_range", message: said.problem });
    else {
      const r = buildRange(range.spec, range.from, range.to, tz);
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
          "A schedule runs once an hour, once a day, on the weekdays you name, or on one day of the month or quarter: say which, e.g. “every Monday and Thursday at 9” or “on the 1st of every month”.",
      });
    else if (schedule?.every)
      problems.push({
        kind: "bad_condition",
        message: `Schedules run every hour, every day, on the weekdays you name, or once a month or quarter; “${schedule.every}” is not something I can set up: say which, e.g. “every Monday” or “monthly”.`,
      });
    else if (schedule?.frequency === "monthly" && schedule.days.length > 0 && !schedule.on)
      problems.push({ kind: "bad_condition", message: whichWeekdayRefusal(schedule) });
    reading.schedule = scheduleOf(schedule, mode);
    // "more than 20 a day": the condition's count is the day's (the week's), whatever the default range.
    const counted =
      found.conditionRange && !rangeSaid ? rollingRange(found.conditionRange, today) : undefined;
    if (counted) reading.range = counted;
    // A monthly or quarterly digest that names no period covers the month or quarter just ended, or,
    // run at its end, the one it ends.
    if (!rangeSaid) {
      const own = calendarRange(reading.schedule, today);
      if (own) reading.range = own;
    } else if (main && "range" in main && main.rolling)
      reading.range = { ...reading.range, spec: main.rolling };
    if (alert) reading.condition = alert;
    if (found.channel) problems.unshift({ kind: "bad_condition", message: channelMessage(reading) });
    // "send @alice the weekly digest": only the person asking can be subscribed by a question.
    else if (found.someoneElse)
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
    if (found.intentWords.has("export"))
      problems.push({
        kind: "bad_condition",
        message:
          "A schedule sends the digest as a message, not a CSV file; ask for the file when you need it, e.g. “export last week as csv”.",
      });
    if (rangeSaid && !ROLLING.test(reading.range.spec))
      problems.push({
        kind: "bad_condition",
        message: `A schedule needs a rolling period such as the last 7 days, last week or last month, not ${periodLabel(range)}.`,
      });
  } else if (found.channel)
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

/** Ranges a schedule can repeat: the slash command's rolling forms. */
const ROLLING = /^(last\d+d|thisweek|lastweek|thismonth|lastmonth|yesterday|thisquarter|lastquarter|ytd)$/;

/**
 * The period a monthly or quarterly schedule covers when none is said: the month (quarter) just ended,
 * or, for a day counted from the end (the last working day, the last Friday), the one it ends.
 */
function calendarRange(s: AskSchedule, today: IsoDay): DayRange | undefined {
  if ((s.frequency !== "monthly" && s.frequency !== "quarterly") || !s.on) return undefined;
  const unit = s.frequency === "monthly" ? "month" : "quarter";
  return rollingRange(`${countsFromEnd(s.on) ? "this" : "last"}${unit}`, today);
}

export function defaultRange(today: IsoDay): DayRange {
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
function impliedRange(unit: OverUnit, today: IsoDay): DayRange {
  const r = (from: IsoDay, to: IsoDay, spec?: string) => {
    const p = period(from, to, today, spec);
    return "range" in p ? p.range : defaultRange(today);
  };
  switch (unit) {
    case "day":
      return r(addDays(today, -1), addDays(today, -1));
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

/** Words that set two things against each other. */
const COMPARE_WORDS = new Set(["compare", "compared", "comparing", "comparison", "vs", "versus", "against"]);

/** What to say to a channel's schedule asked in words: the channel's own command, with what was understood. */
function channelMessage(r: AskReading): string {
  // A channel's alert is a subscription with a condition: the same words after "subscribe".
  const personal = slashText(r)?.replace(/^(subscribe|alert) me /, "");
  const how = personal
    ? `runs \`/insights subscribe ${personal}\` in that channel (or \`/insights subscribe\` for the form)`
    : "runs `/insights subscribe` in that channel for the form";
  return `I set up digests and alerts for you alone, by DM. For a channel, an admin ${how}.`;
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
