/**
 * The words the reader knows, and how a misspelt one is put right. Correction is deliberately
 * narrow: only towards these words, only when one of them is clearly closest, and never for a word
 * that is one of the account's own names. A word it cannot place is left as it is, and the reader
 * then refuses the question instead of guessing.
 */

export const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
] as const;

export const WEEKDAYS = [
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
] as const;

/** Short forms people type; mapped before anything else (exact words only). */
export const ABBREVIATIONS: Record<string, string> = {
  jan: "january",
  feb: "february",
  mar: "march",
  apr: "april",
  jun: "june",
  jul: "july",
  aug: "august",
  sep: "september",
  sept: "september",
  oct: "october",
  nov: "november",
  dec: "december",
  mon: "monday",
  tue: "tuesday",
  tues: "tuesday",
  wed: "wednesday",
  thu: "thursday",
  thur: "thursday",
  thurs: "thursday",
  fri: "friday",
  sat: "saturday",
  sun: "sunday",
  mondays: "monday",
  tuesdays: "tuesday",
  wednesdays: "wednesday",
  thursdays: "thursday",
  fridays: "friday",
  saturdays: "saturday",
  sundays: "sunday",
  lst: "last",
  wk: "week",
  wek: "week",
  wks: "weeks",
  mo: "month",
  mos: "months",
  mth: "month",
  mnth: "month",
  mths: "months",
  yr: "year",
  yrs: "years",
  qtr: "quarter",
  prev: "previous",
  pls: "please",
  plz: "please",
  thx: "thanks",
  ty: "thanks",
  v: "vs",
  versus: "vs",
  cmp: "compared",
  yday: "yesterday",
  tmrw: "tomorrow",
  w: "with",
  vulns: "vulnerabilities",
  vuln: "vulnerabilities",
  u: "you",
  ur: "your",
  r: "are",
};

/**
 * What people call the digest itself ("a quick summary", "the rundown for October", "summarize last
 * week", "an analysis of October"): known words, fillers and digest cues at once. American spellings:
 * the British ones are read as these (src/ask/rules/words.ts).
 */
const SUMMARY_WORDS = [
  "summary",
  "rundown",
  "recap",
  "roundup",
  "snapshot",
  "overview",
  "report",
  "summarize",
  "analyze",
  "analysis",
];

/**
 * Every word some rule of the reader acts on. Misspellings are corrected towards these only.
 */
const KNOWN_WORDS = [
  ...MONTHS,
  ...WEEKDAYS,
  // periods
  "today",
  "yesterday",
  "tomorrow",
  "day",
  "days",
  "week",
  "weeks",
  "weekend",
  "fortnight",
  "month",
  "months",
  "quarter",
  "quarters",
  "year",
  "years",
  "last",
  "past",
  "previous",
  "prior",
  "this",
  "current",
  "since",
  "between",
  "through",
  "until",
  "till",
  "ago",
  "couple",
  "few",
  "several",
  "early",
  "mid",
  "middle",
  "late",
  "end",
  "before",
  "start",
  "beginning",
  "first",
  "second",
  "third",
  "fourth",
  "next",
  "date",
  "dates",
  "period",
  "same",
  "time",
  "half",
  // comparisons
  "compared",
  "compare",
  "comparing",
  "comparison",
  "against",
  "than",
  "relative",
  "vs",
  // metrics
  "findings",
  "finding",
  "violations",
  "violation",
  "fixes",
  "fixed",
  "fix",
  "remediated",
  "remediation",
  "remediations",
  "resolved",
  "merged",
  "merges",
  "merge",
  "rate",
  "vulnerabilities",
  "vulnerability",
  "issues",
  // intents
  "why",
  "reason",
  "cause",
  "caused",
  "causing",
  "drivers",
  "driving",
  "explain",
  "breakdown",
  "contributed",
  "contributors",
  "responsible",
  "changed",
  "trend",
  "trends",
  "trending",
  "visualize",
  "visualization",
  "chart",
  "graph",
  "plot",
  "sparkline",
  "timeline",
  "export",
  "dump",
  "download",
  "spreadsheet",
  "excel",
  "csv",
  "help",
  "examples",
  "alert",
  "notify",
  "subscribe",
  "schedule",
  "send",
  "every",
  "daily",
  "weekly",
  "hourly",
  "biweekly",
  "fortnightly",
  "bimonthly",
  "least",
  "channel",
  "usual",
  "normal",
  "except",
  "excluding",
  "thru",
  "top",
  "worst",
  "noisiest",
  "offenders",
  "double",
  "doubles",
  "morning",
  "afternoon",
  "evening",
  "night",
  "tonight",
  "weekday",
  "weekdays",
  "workday",
  "workdays",
  "working",
  "business",
  "nightly",
  "monthly",
  "quarterly",
  "midday",
  "noon",
  "midnight",
  "around",
  "thing",
  // words of the rules' phrases that are no slip of another (a test holds every phrase's words here)
  "example",
  "ever",
  "forever",
  "shows",
  "reported",
  "mail",
  "forward",
  "rates",
  "fixrate",
  "issue",
  "reasons",
  "causes",
  "driver",
  "contributor",
  "trendline",
  "graphs",
  "exported",
  "alerts",
  "ending",
  "timezone",
  "weekdaily",
  "anything",
  "something",
  "starts",
  "creeping",
  "periods",
  "times",
  "weekends",
  // conditions, in every form people write their verbs
  "exceeding",
  "exceeded",
  "pass",
  "passes",
  "passing",
  "passed",
  "tops",
  "topping",
  "cross",
  "crosses",
  "crossing",
  "crossed",
  "surpass",
  "surpasses",
  "surpassing",
  "breach",
  "breaches",
  "breaching",
  "climb",
  "climbs",
  "spikes",
  "spiking",
  "jumps",
  "jumping",
  "shoot",
  "shoots",
  "creep",
  "creeps",
  "falls",
  "dip",
  "dips",
  "dipping",
  "sink",
  "sinks",
  "sinking",
  "slip",
  "slips",
  "slipping",
  "grows",
  "shrink",
  "shrinks",
  "shrinking",
  "doubling",
  "heads",
  "shout",
  "moment",
  "setup",
  "configure",
  "create",
  "above",
  "below",
  "exceed",
  "exceeds",
  "greater",
  "under",
  "increase",
  "increases",
  "decrease",
  "decreases",
  "drops",
  "rises",
  "percent",
  "unusual",
  "unusually",
  "abnormal",
  "abnormally",
  // fillers people write out
  "please",
  "thanks",
  "overall",
  "scanner",
  "scanners",
  "scanning",
  "assets",
  "repositories",
  "services",
  "projects",
  "numbers",
  ...SUMMARY_WORDS,
  "status",
  "doing",
  "going",
  "happened",
  "happening",
];

export const KNOWN = new Set<string>(KNOWN_WORDS);

/**
 * Optimal string alignment distance: Levenshtein with a swap of two neighbours counting as one edit,
 * the commonest typo of all ("violatoins").
 */
export function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > 2) return 3;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) => {
    const row = new Array<number>(m + 1).fill(0);
    row[0] = i;
    return row;
  });
  for (let j = 0; j <= m; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= n; i++) {
    const row = d[i] as number[];
    const up = d[i - 1] as number[];
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[n] as number[])[m] as number;
}

/** How far a word of this length may be from the word it was meant to be. */
function allowance(length: number): number {
  if (length < 4) return 0;
  return length >= 7 ? 2 : 1;
}

/**
 * The word meant by a misspelt `word`, or undefined when it is not clearly a misspelling of one word
 * the reader knows. Short words are only put right by a swap of two letters ("lsat"), longer ones by
 * one or two edits, keeping the first letter (a changed first letter is more often another word).
 *
 * @example correction("violatoins") // "violations"
 * @example correction("severity") // undefined
 */
export function correction(word: string): string | undefined {
  if (!/^[a-z]+$/.test(word)) return undefined;
  // Fillers are swallowed silently, so only a one-letter slip ("shwo") is put right towards one.
  return closest(word, KNOWN_CANDIDATES, allowance(word.length)) ?? closest(word, FILLER_CANDIDATES, 1);
}

function closest(word: string, candidates: readonly string[], limit: number): string | undefined {
  if (limit === 0 || word.length < 4) return undefined;
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const known of candidates) {
    // A first letter dropped from a long word ("iolations") is a slip; changed, it is more often another word.
    const dropped = word.length >= 6 && known.slice(1) === word;
    if (known[0] !== word[0] && !(known[0] === word[1] && known[1] === word[0]) && !dropped) continue;
    const d = dropped ? 1 : editDistance(word, known);
    // Four letters leave no room for more than a swap or a dropped letter: "lsat" is "last", "evry" is
    // "every", "risk" is not "rise".
    if (word.length === 4 && d === 1 && !isSwap(word, known) && known.length !== 5) continue;
    if (d < bestDistance) {
      best = known;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance && known !== best) tie = true;
  }
  return best !== undefined && bestDistance > 0 && bestDistance <= limit && !tie ? best : undefined;
}

/** What misspellings are put right towards: the reader's words, then the fillers ("shwo"). */
const KNOWN_CANDIDATES: string[] = [];
const FILLER_CANDIDATES: string[] = [];

/**
 * A three-letter word with two neighbours swapped ("teh", "hwo", "adn") or a letter left out ("wht"),
 * towards the one word of the reader's or the fillers it is a slip of; longer slips are correction's.
 *
 * @example swapOf("teh") // "the"
 */
export function swapOf(word: string): string | undefined {
  if (word.length !== 3 || !/^[a-z]+$/.test(word)) return undefined;
  const found = new Set<string>();
  for (const w of THREE_LETTER) if (isSwap(word, w)) found.add(w);
  // Or a letter left out of a four-letter word ("wht", "frm"), its first letter kept.
  for (const w of FOUR_LETTER)
    if (w[0] === word[0] && [1, 2, 3].some((k) => w.slice(0, k) + w.slice(k + 1) === word)) found.add(w);
  return found.size === 1 ? [...found][0] : undefined;
}

function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const diff: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff.push(i);
  return (
    diff.length === 2 &&
    diff[1] === (diff[0] as number) + 1 &&
    a[diff[0] as number] === b[diff[1] as number] &&
    a[diff[1] as number] === b[diff[0] as number]
  );
}

/** A number written as digits or as a small word ("two weeks"). */
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  thirty: 30,
  sixty: 60,
  ninety: 90,
};

export function numberOf(word: string | undefined): number | undefined {
  if (word === undefined) return undefined;
  if (/^\d{1,7}$/.test(word)) return Number(word);
  if (/^\d{1,3}(,\d{3})+$/.test(word)) return Number(word.replace(/,/g, ""));
  return NUMBER_WORDS[word];
}

/**
 * Words said around a request in a chat, carrying none of it: how things go ("increasing"), courtesy,
 * hedges, why one asks ("sorry to bug you" is not among them: "bug" can name a kind of finding; nor
 * are people, whose team a subject may be). Fillers, but never what a misspelt word is corrected to:
 * "failing" is not "falling", "cisco" not "ciso".
 */
const CHAT_WORDS = [
  "increasing",
  "decreasing",
  "growing",
  "dropping",
  "falling",
  "climbing",
  "becoming",
  "become",
  "becomes",
  "hope",
  "well",
  "sorry",
  "bother",
  "great",
  "awesome",
  "cool",
  "cheers",
  "kindly",
  "appreciate",
  "appreciated",
  "specifically",
  "exactly",
  "actually",
  "basically",
  "maybe",
  "perhaps",
  "very",
  "pull",
  "prepping",
  "preparing",
  "prepare",
  "deck",
  "slides",
  "presentation",
  "standup",
  "ciso",
  "only",
  "having",
  "make",
  "made",
  "making",
  "receive",
  "receiving",
];
const CHAT = new Set<string>(CHAT_WORDS);

/**
 * Words that carry no part of the request once the rest is read ("how are we doing", "show me the
 * numbers for…"). Negations and qualifiers ("not", "open", "critical") are deliberately absent: a
 * question that uses them asks for something the digest does not show, and is refused.
 */
export const FILLERS = new Set([
  "a",
  "an",
  "the",
  "of",
  "for",
  "in",
  "on",
  "at",
  "to",
  "from",
  "with",
  "about",
  "and",
  "or",
  "so",
  "far",
  "me",
  "my",
  "i",
  "we",
  "us",
  "our",
  "ours",
  "you",
  "your",
  "it",
  "its",
  "they",
  "them",
  "their",
  "is",
  "are",
  "am",
  "was",
  "were",
  "be",
  "been",
  "being",
  "has",
  "have",
  "had",
  "do",
  "does",
  "did",
  "done",
  "doing",
  "can",
  "could",
  "would",
  "will",
  "should",
  "shall",
  "may",
  "might",
  "please",
  "thanks",
  "thank",
  "hi",
  "hello",
  "hey",
  "yo",
  "ok",
  "okay",
  "there",
  "here",
  "what",
  "how",
  "which",
  "that",
  "this",
  "these",
  "those",
  "show",
  "give",
  "get",
  "got",
  // "how many fixes did we ship": the fixes were made, nothing more.
  "ship",
  "ships",
  "shipped",
  "shipping",
  "let",
  "see",
  "look",
  "looking",
  "like",
  "want",
  "need",
  "just",
  "quick",
  "quickly",
  "all",
  "any",
  "total",
  "totals",
  "overall",
  "count",
  "counts",
  "number",
  "numbers",
  "many",
  "much",
  "stats",
  "statistics",
  "status",
  ...SUMMARY_WORDS,
  "digest",
  "update",
  "insights",
  "insight",
  "security",
  "team",
  "teams",
  "group",
  "groups",
  "everything",
  "things",
  "going",
  "shape",
  "state",
  "currently",
  "now",
  "right",
  "lately",
  "recently",
  "new",
  "up",
  "down",
  "go",
  "goes",
  "went",
  "gone",
  "rise",
  "rose",
  "risen",
  "rising",
  "increase",
  "increased",
  "decrease",
  "decreased",
  "drop",
  "dropped",
  "fall",
  "fell",
  "jump",
  "jumped",
  "spike",
  "spiked",
  "grow",
  "grew",
  "more",
  "fewer",
  "less",
  "higher",
  "lower",
  "better",
  "worse",
  "bigger",
  "smaller",
  "change",
  "changes",
  "happen",
  "happened",
  "happening",
  "scanner",
  "scanners",
  "scanning",
  "scan",
  "scans",
  "asset",
  "assets",
  "repo",
  "repos",
  "repository",
  "repositories",
  "service",
  "services",
  "project",
  "projects",
  "app",
  "apps",
  "policy",
  "during",
  "over",
  "within",
  "throughout",
  "by",
  "per",
  "as",
  "into",
  "then",
  "than",
  "vs",
  "period",
  "time",
  "days",
  "where",
  "looks",
  "whole",
  "entire",
  "org",
  "organization",
  "company",
  "compare",
  "compared",
  "comparison",
  "tell",
  "know",
  "some",
  "info",
  "information",
  "details",
  "data",
  "metrics",
  "metric",
  "results",
  "figures",
  "again",
  "too",
  "also",
  "however",
  "whatever",
  "anyway",
  "gimme",
  "news",
  "low",
  "high",
  "good",
  "morning",
  "afternoon",
  "evening",
  "hows",
  "whats",
  "thats",
  "most",
  "biggest",
  "largest",
  "digests",
  // Verbs that only say the findings came from somewhere ("what did sast find").
  "find",
  "finds",
  "found",
  "detect",
  "detected",
  "flag",
  "flagged",
  "leak",
  "leaks",
  "leaked",
  // "remind me to check violations": what the person will do with the numbers.
  "check",
  "review",
  // How things go, which is what the digest with its comparison shows.
  ...CHAT_WORDS,
  "getting",
  "improving",
  "improved",
  "worsening",
  "worsened",
  "-",
  "/",
  "&",
  "+",
]);

/** Fillers that still say "tell me how things stand": alone they ask for the digest. */
export const DIGEST_CUES = new Set([
  "doing",
  "going",
  "status",
  ...SUMMARY_WORDS,
  "digest",
  "update",
  "numbers",
  "stats",
  "statistics",
  "shape",
  "happened",
  "happening",
  "looks",
  "look",
  // "how's everything looking?": how things stand, as "how are we doing" asks.
  "looking",
  "insights",
  "many",
  "much",
  "count",
  "total",
  "totals",
  "up",
  "down",
  "better",
  "worse",
  "change",
  "changes",
]);

for (const w of KNOWN) if (w.length >= 3 && /^[a-z]+$/.test(w)) KNOWN_CANDIDATES.push(w);
for (const w of FILLERS)
  if (w.length >= 4 && /^[a-z]+$/.test(w) && !KNOWN.has(w) && !CHAT.has(w)) FILLER_CANDIDATES.push(w);

/** The reader's and the fillers' three-letter words, what a swap of two letters is put right towards. */
const THREE_LETTER: readonly string[] = [...new Set([...KNOWN, ...FILLERS])].filter((w) =>
  /^[a-z]{3}$/.test(w),
);
const FOUR_LETTER: readonly string[] = [...new Set([...KNOWN, ...FILLERS])].filter((w) =>
  /^[a-z]{4}$/.test(w),
);
