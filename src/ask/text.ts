/**
 * A Slack message's text as a list of lower-case words. Slack sends mentions, channels and links as
 * `<…>` markup and escapes `&`, `<` and `>`; people add emphasis, quotes, contractions and stray
 * punctuation. None of that is meaning, so it goes before the reader looks at the words; what is
 * meaning but not readable (another person's mention, a link) stays as a word the reader will not
 * know, so the question is refused rather than answered without it.
 */

const CONTRACTIONS: Record<string, string[]> = {
  "what's": ["what", "is"],
  "how's": ["how", "is"],
  "where's": ["where", "is"],
  "who's": ["who", "is"],
  "why's": ["why", "is"],
  "that's": ["that", "is"],
  "it's": ["it", "is"],
  "there's": ["there", "is"],
  "let's": ["let", "us"],
  "we're": ["we", "are"],
  "they're": ["they", "are"],
  "you're": ["you", "are"],
  "i'm": ["i", "am"],
  "i'd": ["i", "would"],
  "i'll": ["i", "will"],
  "we've": ["we", "have"],
  "didn't": ["did", "not"],
  "don't": ["do", "not"],
  "doesn't": ["does", "not"],
  "isn't": ["is", "not"],
  "aren't": ["are", "not"],
  "wasn't": ["was", "not"],
  "weren't": ["were", "not"],
  "can't": ["can", "not"],
  "won't": ["will", "not"],
  "haven't": ["have", "not"],
  "hasn't": ["has", "not"],
};

/** The regular endings of the rest ("how're", "who've", "it'll"); `'s` and `'d` are too ambiguous. */
const ENDINGS: Record<string, string> = { re: "are", ve: "have", ll: "will" };

function openContraction(c: string): string[] | undefined {
  const m = /^([a-z]+)'(re|ve|ll)$/.exec(c);
  return m ? [m[1] as string, ENDINGS[m[2] as string] as string] : undefined;
}

/**
 * A count glued to its unit ("2wks", "3mo", "14days"): two words, as if typed apart. `30d` stays whole
 * (the command's own form), and so do times ("9am") and ordinals ("1st").
 */
const GLUED_UNITS = new Map<string, string>(
  Object.entries({
    w: "weeks",
    wk: "weeks",
    wks: "weeks",
    week: "week",
    weeks: "weeks",
    day: "day",
    days: "days",
    mo: "months",
    mos: "months",
    mth: "months",
    mths: "months",
    month: "month",
    months: "months",
    yr: "years",
    yrs: "years",
    year: "year",
    years: "years",
  }),
);

/**
 * Longest question read, in characters of its plain text; a pasted essay is not a question (and the
 * reader stays fast). A longer one is refused whole: an answer to the first part of a question
 * would drop whatever narrowed it at the end ("… for payments api") and answer for everything.
 */
export const MAX_QUESTION_CHARS = 500;

/** Slack's own cap on a message's text: past it there is nothing a person typed to undo markup in. */
const MAX_INPUT_CHARS = 40_000;

/** Emoji characters: pictographs, skin tones, joiners, variation selectors, keycaps, flags. */
const EMOJI =
  /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0e|\ufe0f|\u20e3/gu;

/**
 * Faces typed as text (":)", ";-)", ":D", ":P", "xD", "^^", "^_^"), alone between spaces: "9:30" and
 * "<3" (a threshold, "fewer than 3") are not among them.
 */
const EMOTICONS = /(^|\s)(?:[:;=][-'^o]?[)(\][dpo3*|/\\]+|x-?d+|\^_?\^)(?=\s|$|[,.!?])/gi;

/** Slack's markup and escapes turned into plain words; `botUserId`'s mentions removed. */
export function plainText(input: string, botUserId?: string): string {
  return (
    input
      .slice(0, MAX_INPUT_CHARS)
      .replace(/<@([UW][A-Z0-9]+)(\|[^>]*)?>/g, (_m, id: string) => (id === botUserId ? " " : " @someone "))
      .replace(/<#[CG][A-Z0-9]+(\|[^>]*)?>/g, " #channel ")
      // A channel typed as text ("#appsec"; Slack's channel names are lower case, digits, - and _),
      // when it starts with a letter: "#1" is a rank.
      .replace(/(^|\s)#[a-z][a-z0-9_-]{0,79}(?=$|[\s,.;!?])/gi, "$1 #channel ")
      .replace(/<![^>]*>/g, " @everyone ")
      .replace(/<[^>]*>/g, " link ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
      // Thousands separators ("1,000") before commas become word breaks.
      .replace(/(\d),(?=\d{3}\b)/g, "$1")
      // Emoji carry no question: Slack's codes, the characters themselves (with their skin tones,
      // joiners and variation selectors, flags), and faces typed as text.
      .replace(/:[a-z0-9_+-]+:/gi, " ")
      .replace(EMOJI, " ")
      .replace(EMOTICONS, "$1 ")
      .replace(/[‘’‚‛`´]/g, "'")
      .replace(/[“”„‟«»"]/g, " ")
      .replace(/[–—]/g, " - ")
      // One Unicode form for what looks the same: "é" typed as one character or as "e" and an accent,
      // full-width letters and digits as plain ones. Names are read in the same form (nameWords).
      .normalize("NFKC")
      .toLowerCase()
  );
}

/** Separators that are never part of a word. */
const BREAKS = /[\s,;!?()[\]{}|]+/;

/** Splits one space-free chunk into words, keeping dates, times, ranges and `group/*` whole enough to read. */
export function splitChunk(chunk: string): string[] {
  const glued = /^(\d{1,3})([a-z]+)$/.exec(chunk);
  const unit = glued ? GLUED_UNITS.get(glued[2] as string) : undefined;
  if (glued && unit) return [glued[1] as string, unit];
  if (/^[a-z0-9]+$/.test(chunk)) return [chunk];
  // Emphasis marks around words (`*why*`, `_last week_`); a `*` after `/` is a group's wildcard.
  let c = chunk.replace(/^[*_~]+/, "").replace(/(?<!\/)[*_~]+$/, "");
  c = c.replace(/^'+|'+$/g, "");
  if (c === "") return [];
  const contraction = (Object.hasOwn(CONTRACTIONS, c) ? CONTRACTIONS[c] : undefined) ?? openContraction(c);
  if (contraction) return contraction;
  // Possessives: "payments's", "payments'", "team's".
  c = c.replace(/'s$/, "");
  // Full stops and colons at the end of a word end a sentence ("last week." "violations:").
  c = c.replace(/[.:]+$/, "");
  // "a.m." and "p.m." (their last stop gone with the sentence's), alone or after the time: "9 a.m.", "9p.m.".
  c = c.replace(/^((?:\d{1,2}(?::\d{2})?)?[ap])\.m$/, "$1m");
  if (c === "") return [];
  // Slash-command ranges and ISO days as typed stay one word.
  if (/^\d{4}-\d{2}-\d{2}(\.\.\d{4}-\d{2}-\d{2})?$/.test(c)) return [c];
  // So do ids as the service gives them (UUIDs), which the slash command takes for an asset.
  if (/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(c)) return [c];
  const out: string[] = [];
  // Operators and signs: ">500", "500+", "≥", "10%".
  const parts = c
    .replace(/(>=|<=|[≥≤><=])/g, " $1 ")
    .replace(/\//g, " / ")
    .replace(/(\d)\+$/, "$1 +")
    .split(/\s+/)
    .filter(Boolean);
  for (const p of parts) {
    // Hyphens join words people also write apart ("year-to-date", "fraud-engine", "oct-1"), and
    // separate numbers ("1-15"); the reader puts names back together.
    if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(p) && !/^\d{4}-\d{2}-\d{2}$/.test(p)) {
      p.split("-").forEach((w, i) => {
        if (i > 0) out.push("-");
        out.push(w);
      });
    } else out.push(p);
  }
  return out;
}

/**
 * The words of a question: plain text, lower case, contractions opened, punctuation that is not
 * meaning dropped. Symbols that carry meaning (`/`, `*`, `-`, `>`, `<`, `%`) stay as words of their own.
 *
 * @example words("Why did *violations* go up in payments/api last week?") // ["why","did","violations","go","up","in","payments","/","api","last","week"]
 */
export function words(input: string, botUserId?: string): string[] {
  return plainText(input, botUserId).split(BREAKS).flatMap(splitChunk);
}

/**
 * How long a question is as read: its plain text with runs of spaces counted once, so a mention or a
 * link counts as the word it becomes. Input past Slack's own cap counts as all of it.
 */
export function questionLength(input: string, botUserId?: string): number {
  if (input.length > MAX_INPUT_CHARS) return input.length;
  return plainText(input, botUserId).replace(/\s+/g, " ").trim().length;
}

/** The words of a name from the service (no Slack markup to undo): the same splitting, faster. */
export function nameWords(name: string): string[] {
  return name.normalize("NFKC").toLowerCase().split(BREAKS).flatMap(splitChunk);
}
