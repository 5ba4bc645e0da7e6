import type { Sentence } from "../sentence.ts";
import type { Pass } from "./found.ts";
import type { Example } from "./rule.ts";

/**
 * Something to be sent: "send", "post", "remind", "subscribe"; where to ("to #security", "in this
 * channel": a channel's schedule, which questions do not set up) and to whom ("send @alice …": only
 * the person asking can be subscribed by a question).
 */

const SEND_WORDS = [
  "send",
  "post",
  "deliver",
  "remind",
  "subscribe",
  "schedule",
  "dm",
  "message",
  "email",
  "mail",
  "forward",
];

/** What a schedule sends: said with "daily" or "weekly", they make it a schedule. */
export const SENT_THINGS: ReadonlySet<string> = new Set([
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
export const SHOW_WORDS: ReadonlySet<string> = new Set(["show", "see", "view", "display", "look"]);

export const SENDING_EXAMPLES: readonly Example[] = [
  {
    q: "send me payments violations every Monday at 9",
    reads: {
      intent: "subscribe",
      schedule: "weekly mon 09:00",
      groups: ["payments"],
      metrics: ["violations"],
    },
  },
  { q: "post a weekly digest to #security", reads: { problem: "bad_condition" } },
  { q: "send <@U0OTHER> the weekly digest", reads: { problem: "bad_condition" } },
];

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

/** What is set up: "set up an alert", "create a weekly digest", "configure a report". */
const SET_UP_THINGS = new Set([
  ...SENT_THINGS,
  "alert",
  "alerts",
  "notification",
  "notifications",
  "reminder",
  "reminders",
  "subscription",
  "schedule",
]);

/** "set up", "create", "configure", "add": claimed when what they make is named within a few words. */
function claimSetUp(s: Sentence): boolean {
  let found = false;
  for (let i = 0; i < s.length; i++) {
    const verb = Math.max(s.match(i, "set up"), s.match(i, "setup|create|configure|add|schedule"));
    if (verb <= 0) continue;
    const thing = s.words.slice(i + verb, i + verb + 4).some((w) => SET_UP_THINGS.has(w));
    if (!thing) continue;
    s.claim(i, verb);
    found = true;
  }
  return found;
}

export const sendingPass: Pass = {
  name: "sending",
  why: "before schedules: a weekday said after 'send' is a schedule's day, not the day asked about",
  run(s, found) {
    const setUp = claimSetUp(s);
    found.sending = claimAll(s, SEND_WORDS) || setUp;
  },
};

export const channelPass: Pass = {
  name: "channel",
  why: "after schedules and alerts: only something sent has a channel to go to",
  run(s, found) {
    found.channel =
      found.schedule !== null || found.sending || found.condition !== undefined ? claimChannel(s) : false;
  },
};

export const recipientPass: Pass = {
  name: "recipient",
  why: "after schedules: only something sent has someone to receive it",
  run(s, found) {
    found.someoneElse = (found.schedule !== null || found.sending) && claimAll(s, ["@someone"]);
  },
};
