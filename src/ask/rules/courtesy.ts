import type { Pass } from "./found.ts";
import type { Example, Rule } from "./rule.ts";

/**
 * Courtesy and chat around a request: thanks, please, greetings, sign-offs, hedges, laughter, why and
 * when one asks ("before standup"). None of it is part of what is asked; said alone ("thank you so
 * much") it gets the examples, as "thanks" does. Emoji never reach the words (text.ts drops them).
 */

type Phrase = Rule<{ len: number }>;

const words = new Set<string>();

/**
 * The words of courtesy, kept as typed: a slip is never "corrected" into one of them, and none of
 * them into a word that means something ("chance" is not "change").
 */
export const COURTESY_WORDS: ReadonlySet<string> = words;

/** A courtesy rule: the longest of its phrases that is said at `i`. */
function phrases(name: string, patterns: readonly string[], examples: readonly Example[]): Phrase {
  for (const p of patterns) for (const w of p.replace(/\?/g, "").split(/[ |]/)) if (w !== "") words.add(w);
  return {
    name,
    examples,
    at(s, i) {
      let len = 0;
      for (const p of patterns) len = Math.max(len, s.match(i, p));
      return len > 0 ? { len } : null;
    },
  };
}

const thanks = phrases(
  "thanks",
  [
    // "thank you so much": its "much" does not ask for numbers.
    "thanks|thank|thx|ty you? so|very much",
    "thanks|thx a lot|bunch|million|ton",
    "thanks|thx in advance",
    "many|big thanks",
    "much|greatly appreciated",
    "appreciate it|that",
    "tia|tyvm|thnx|thanx|thankyou|ta|cheers",
  ],
  [
    { q: "thank you so much", reads: { intent: "help" } },
    { q: "violations last week, thank you very much", reads: { intent: "digest", range: "lastweek" } },
    { q: "violations last week, thanks a lot 🙏", reads: { intent: "digest", range: "lastweek" } },
    { q: "findings this month pls, tia", reads: { intent: "digest", range: "thismonth" } },
  ],
);

const please = phrases(
  "please and would you",
  [
    "please|pls|plz|plse|pleasee|kindly",
    "if you could|can|would",
    "if you do not mind",
    "if possible|poss",
    "would|do you mind",
    "i? would love|like|appreciate",
    "would you be so kind",
    "when|whenever you get|have a chance|moment|minute|sec|second",
    "when|whenever you can",
    "at your convenience",
    "no rush|hurry|worries",
    "asap",
    "real|very quick",
    "do me a favour|favor",
  ],
  [
    {
      q: "could you show me violations last week when you get a chance?",
      reads: { range: "lastweek", metrics: ["violations"] },
    },
    {
      q: "findings in payments if possible, no rush",
      reads: { groups: ["payments"], metrics: ["findings"] },
    },
  ],
);

const greetings = phrases(
  "greetings and sign-offs",
  [
    "good morning|afternoon|evening|day",
    "hiya|heya|howdy|greetings|hullo|sup|gm|g'day",
    "hi|hey|hello|cheers|thanks|thx|ta there|all|folks|team|everyone|guys|mate|buddy|pal|bot",
    "dear insights|bot",
    "kind|best|warm? regards",
    "have a good|nice|great day|one|weekend",
    "you rock|rule",
    "you are a star|legend|lifesaver",
  ],
  [
    { q: "good morning! how are we doing?", reads: { intent: "digest" } },
    { q: "cheers mate, findings in infra yesterday", reads: { groups: ["infra"], range: "2026-11-17" } },
    { q: "hey there, violations this week? cheers", reads: { range: "thisweek", metrics: ["violations"] } },
  ],
);

const chatter = phrases(
  "hedges, laughter and why one asks",
  [
    "lol|haha|hahaha|hehe|lmao|omg|btw|fyi|tbh|imo|fwiw",
    "quick question|one|q",
    "just|i was? wondering|curious if|whether?",
    "i think|guess|suppose",
    "before|after|for the|our|my? standup|meeting|call|sync|retro|demo",
    "ahead of the|our|my? standup|meeting|call|sync|retro|demo",
    // What the numbers are for: "for my quarterly report", "the monthly review deck" (an event, not a
    // digest to send: "a monthly report" alone is one).
    "for|in|into my|our monthly|weekly|quarterly|annual|yearly? report|review|deck|presentation|slides|meeting|update",
    "monthly|weekly|quarterly|annual|yearly deck|presentation|slides|meeting|retro|standup|sync",
    "monthly|weekly|quarterly|annual|yearly review deck|presentation|slides|meeting|call|session",
  ],
  [
    { q: "quick question — how many fixes last week? lol", reads: { range: "lastweek", metrics: ["fixes"] } },
    {
      q: "before standup: violations in payments this week",
      reads: { range: "thisweek", groups: ["payments"] },
    },
    {
      q: "for my quarterly report I need a spreadsheet of Q3",
      reads: { intent: "export", range: "2026-07-01..2026-09-30" },
    },
  ],
);

/**
 * Asking after the person ("how are you?", "hope you're well"): a pleasantry, not "how are we doing".
 * Said alone it gets the examples; numbers for it would answer a question nobody asked. Said with a
 * request ("hope you're well — violations last week?") the request is read.
 */
const pleasantries = phrases(
  "asking after the person",
  [
    "hope you|u|all|everyone|everything are|is? doing|keeping|going? well|good|great|fine|ok|okay",
    "hope all is? well|good|ok|okay",
    "how are|r you|u|ya doing? today?",
    "how is|has|was your day|week|morning|afternoon|weekend been|going|gone|treating? you?",
    "how have|has you|u been bot|mate|buddy?",
    "how is|are everything|things|life|it all? going? with you|u",
    "are you|u ok|okay|well|good",
    "nice to meet you",
  ],
  [
    { q: "hope you're doing well!", reads: { intent: "help" } },
    { q: "how are you today?", reads: { intent: "help" } },
    { q: "hey, how's your week going?", reads: { intent: "help" } },
    { q: "how's everything with you?", reads: { intent: "help" } },
    { q: "how have you been, bot?", reads: { intent: "help" } },
    {
      q: "hope you're keeping well — fixes in payments last week?",
      reads: { intent: "digest", range: "lastweek", metrics: ["fixes"], groups: ["payments"] },
    },
    // "we", not "you": how the numbers stand.
    { q: "how are we doing?", reads: { intent: "digest" } },
  ],
);

/** The courtesy rules, tried in this order at each word. */
export const COURTESY_RULES: readonly Phrase[] = [thanks, please, greetings, pleasantries, chatter];

export const courtesyPass: Pass = {
  name: "courtesy",
  why: "before everything: its words ('so much', 'when you get a chance', 'quick one') hold words other rules read",
  run(s, _found, ctx) {
    for (let i = 0; i < s.length; i++) {
      if (s.isClaimed(i)) continue;
      // The longest courtesy said here ("cheers mate", not "cheers").
      const len = Math.max(0, ...COURTESY_RULES.map((r) => r.at(s, i, ctx)?.len ?? 0));
      // An account's own name ("cheers", a team called "folks") is never passed over as courtesy.
      if (len > 0 && !s.words.slice(i, i + len).some((w) => ctx.names.words.has(w))) s.claim(i, len);
    }
  },
};
