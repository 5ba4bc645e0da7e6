import { ordinal } from "../../subscriptions/month-day.ts";
import { Sentence } from "../sentence.ts";
import { shortTarget, shortWord } from "../short-names.ts";
import { type NameIndex, slipOfName } from "../subjects.ts";
import { words as wordsOf } from "../text.ts";
import { ABBREVIATIONS, correction, FILLERS, KNOWN, numberOf, swapOf } from "../vocabulary.ts";
import { isZoneWord } from "../zones.ts";
import { COURTESY_WORDS } from "./courtesy.ts";
import type { ReadAs } from "./found.ts";
import { type Example, firstAt, type Rule, type RuleContext } from "./rule.ts";

/**
 * The words of a question as the rules read them: numbers written out become digits ("five hundred"),
 * British spellings and other forms of a verb become the form the rules know ("summarise",
 * "fixing"), and slips are put right ("violatoins", "lastweek", "pleeease"). A word of the account's
 * own names, or one a rule knows, is never changed. Each rule here reads one or a few typed words
 * into the words they stand for; what is a guess (a slip put right) is said back in the answer.
 */

interface WordHit {
  len: number;
  words: string[];
  /** Read as another word by a guess (a slip), which the answer says. */
  loose?: true;
}

type WordRule = Rule<WordHit>;

/** A word some rule reads as it is: never changed. */
function kept(w: string, names: NameIndex): boolean {
  // Numbers in words too: "three" is no slip of "there".
  return names.words.has(w) || KNOWN.has(w) || FILLERS.has(w) || isZoneWord(w) || numberOf(w) !== undefined;
}

/** Numbers said as words, zero to nineteen (the hours a clock says are among them). */
export const UNITS: Readonly<Record<string, number>> = {
  zero: 0,
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
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Readonly<Record<string, number>> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Readonly<Record<string, number>> = { hundred: 100, thousand: 1_000, million: 1_000_000 };
/** Ordinals from the fifth on (first to fourth are words the rules read as such: "the first week"). */
const ORDINALS: Readonly<Record<string, number>> = {
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};
const SMALL_ORDINALS: Readonly<Record<string, number>> = { first: 1, second: 2, third: 3, fourth: 4 };

/** Single number words the rules read as they are ("two weeks", "a day"). */
const SMALL = new Set([
  "a",
  "an",
  ...Object.keys(UNITS).filter((w) => UNITS[w] !== undefined && UNITS[w] <= 12),
]);

const has = (table: Readonly<Record<string, number>>, w: string | undefined): w is string =>
  w !== undefined && Object.hasOwn(table, w);

/**
 * "five hundred", "twenty-five", "two thousand five hundred", "one hundred and fifty", "a hundred",
 * "fifteen", "1.5k", "3 thousand"; "the twenty-first" as `21st`. Numbers of one small word ("two") are
 * left as they are, which the rules read.
 */
const numberWords: WordRule = {
  name: "numbers in words",
  examples: [
    { q: "tell me when violations go above five hundred", reads: { condition: "when violations > 500" } },
    {
      q: "alert me if findings exceed two thousand five hundred",
      reads: { condition: "when findings > 2500" },
    },
    { q: "warn me when violations pass 1.5k", reads: { condition: "when violations > 1500" } },
    { q: "violations in the last fifteen days", reads: { range: "last15d" } },
    { q: "findings over the past twenty-one days", reads: { range: "last21d" } },
    {
      q: "show me a graph of findings over the past three weeks",
      reads: { intent: "trend", range: "last21d" },
    },
  ],
  at(s, i) {
    const w = s.words[i] as string;
    const k = /^(\d+(?:\.\d+)?)k$/.exec(w);
    if (k) {
      const n = Number(k[1]) * 1000;
      return Number.isInteger(n) ? { len: 1, words: [String(n)] } : null;
    }
    // An ordinal: "the fifteenth", "the twenty-first".
    if (has(TENS, w)) {
      const dash = s.words[i + 1] === "-" ? 1 : 0;
      const next = s.words[i + 1 + dash];
      const small = has(SMALL_ORDINALS, next)
        ? SMALL_ORDINALS[next]
        : has(ORDINALS, next)
          ? ORDINALS[next]
          : 0;
      if (small && small < 10) return { len: 2 + dash, words: [ordinal((TENS[w] as number) + small)] };
    }
    if (has(ORDINALS, w)) return { len: 1, words: [ordinal(ORDINALS[w] as number)] };
    let total = 0;
    let current = 0;
    let at = i;
    let last: "unit" | "tens" | "scale" | "start" = "start";
    // "a hundred", "2 thousand": a count of a scale.
    const lead = /^\d+(\.\d+)?$/.test(w) ? Number(w) : w === "a" || w === "an" ? 1 : undefined;
    if (lead !== undefined) {
      if (!has(SCALES, s.words[i + 1])) return null;
      current = lead;
      at++;
      last = "unit";
    }
    for (; at < s.length; at++) {
      const word = s.words[at] as string;
      if (has(UNITS, word) && last !== "unit") {
        if (last === "tens" && (UNITS[word] as number) >= 10) break;
        current += UNITS[word] as number;
        last = "unit";
      } else if (has(TENS, word) && (last === "start" || last === "scale")) {
        current += TENS[word] as number;
        last = "tens";
      } else if (has(SCALES, word) && last !== "start" && last !== "scale") {
        const scale = SCALES[word] as number;
        if (scale === 100) current *= 100;
        else {
          total += current * scale;
          current = 0;
        }
        last = "scale";
      } else if (word === "-" && last === "tens" && has(UNITS, s.words[at + 1])) continue;
      else if (
        word === "and" &&
        last === "scale" &&
        (has(UNITS, s.words[at + 1]) || has(TENS, s.words[at + 1]))
      )
        continue;
      else break;
    }
    const len = at - i;
    if (len === 0 || (len === 1 && SMALL.has(w))) return null;
    const n = total + current;
    return Number.isInteger(n) && len > 0 ? { len, words: [String(n)] } : null;
  },
};

/** Words the rules read as they are: the account's names, the rules' own words, fillers, zones. */
const asTyped: WordRule = {
  name: "words read as typed",
  examples: [{ q: "violations in payments last week", reads: { groups: ["payments"], range: "lastweek" } }],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    return kept(w, ctx.names) || (COURTESY_WORDS.has(w) && !Object.hasOwn(ABBREVIATIONS, w))
      ? { len: 1, words: [w] }
      : null;
  },
};

/** Chat short forms and abbreviations ("pls", "wk", "sept", "vulns"), and "sub me to …". */
const shortForms: WordRule = {
  name: "short forms",
  examples: [
    { q: "vulns lst wk pls", reads: { metrics: ["findings"], range: "lastweek" } },
    { q: "sub me to payments", reads: { intent: "subscribe", groups: ["payments"] } },
  ],
  at(s, i) {
    const w = s.words[i] as string;
    // "sub me to …": subscribe, only where it can mean that ("sub-group" is something else).
    if (w === "sub")
      return i === 0 || ["me", "to", "us"].includes(s.words[i + 1] ?? "")
        ? { len: 1, words: ["subscribe"] }
        : null;
    return Object.hasOwn(ABBREVIATIONS, w) ? { len: 1, words: [ABBREVIATIONS[w] as string] } : null;
  },
};

/** "last7days", "past2weeks": a period typed without its spaces (the command's `last7d` stays as it is). */
const gluedPeriod: WordRule = {
  name: "a period typed as one word",
  examples: [{ q: "violations last7days", reads: { range: "last7d" } }],
  at(s, i) {
    const m = /^(last|past|previous)(\d{1,3})(days?|weeks?|wks?|months?|mos?)$/.exec(s.words[i] as string);
    if (!m) return null;
    const unit = (m[3] as string).startsWith("d")
      ? "days"
      : (m[3] as string).startsWith("w")
        ? "weeks"
        : "months";
    return { len: 1, words: [m[1] as string, m[2] as string, unit] };
  },
};

/**
 * British spellings and their American forms, either way: the form a rule or a name knows
 * ("summarise" → "summarize", "licence" → "license" when the scanner says so). A form is taken only
 * when it is such a word, so "later" never becomes "latre".
 */
const SPELLINGS: readonly [RegExp, string][] = [
  [/is(e|es|ed|ing|ation|ations)$/, "iz$1"],
  [/iz(e|es|ed|ing|ation|ations)$/, "is$1"],
  [/ys(e|es|ed|ing)$/, "yz$1"],
  [/our$/, "or"],
  [/ours$/, "ors"],
  [/ence$/, "ense"],
  [/ense$/, "ence"],
  [/or$/, "our"],
  [/ors$/, "ours"],
  [/tre$/, "ter"],
  [/tres$/, "ters"],
  [/ter$/, "tre"],
  [/ters$/, "tres"],
  [/ogue$/, "og"],
  [/ogues$/, "ogs"],
  [/og$/, "ogue"],
  [/ogs$/, "ogues"],
];

const spelling: WordRule = {
  name: "British and American spellings",
  examples: [
    { q: "summarise violations for last week", reads: { intent: "digest", range: "lastweek" } },
    { q: "visualise findings over the last 30 days", reads: { intent: "trend", range: "last30d" } },
    { q: "can you analyse findings for payments", reads: { intent: "digest", groups: ["payments"] } },
    { q: "summarising last month's violations please", reads: { intent: "digest", range: "lastmonth" } },
  ],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    for (const [from, to] of SPELLINGS) {
      if (!from.test(w)) continue;
      const other = w.replace(from, to);
      if (other === w) continue;
      if (kept(other, ctx.names)) return { len: 1, words: [other] };
      // "analysing": analyzing, a form of "analyze".
      const stem = knownStem(other);
      if (stem) return { len: 1, words: [stem] };
    }
    return null;
  },
};

/** Forms of the rules' verbs that are not words of their own: what each is read as. */
const VERB_FORMS: Readonly<Record<string, string>> = {
  fixing: "fixes",
  remediating: "remediated",
  remediate: "remediated",
  remediates: "remediated",
  resolving: "resolved",
  resolve: "resolved",
  resolves: "resolved",
  patched: "fixed",
  patching: "fixes",
  merging: "merged",
};

/** "fixing", "exporting", "scheduled", "sends": another form of a word a rule reads. */
const verbForm: WordRule = {
  name: "other forms of a verb",
  examples: [
    { q: "how much fixing did we do last week", reads: { metrics: ["fixes"], range: "lastweek" } },
    { q: "exporting last month as csv please", reads: { intent: "export", range: "lastmonth" } },
    { q: "graphing violations over the last 30 days", reads: { intent: "trend", range: "last30d" } },
  ],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    if (Object.hasOwn(VERB_FORMS, w)) return { len: 1, words: [VERB_FORMS[w] as string] };
    const stem = knownStem(w);
    return stem && !ctx.names.words.has(w) ? { len: 1, words: [stem] } : null;
  },
};

/** The word a rule knows that `w` is another form of ("exporting": export, "plotted": plot), if any. */
function knownStem(w: string): string | undefined {
  const stems: string[] = [];
  for (const ending of [/^(.{3,})ing$/, /^(.{3,})ed$/]) {
    const m = ending.exec(w);
    if (!m) continue;
    const base = m[1] as string;
    stems.push(base, `${base}e`);
    if (/(.)\1$/.test(base)) stems.push(base.slice(0, -1));
  }
  const plural = /^(.{3,})s$/.exec(w);
  if (plural) stems.push(plural[1] as string);
  return stems.find((b) => KNOWN.has(b));
}

/** "pleeease", "thanksss", "sooo": letters held down, read once. */
const heldLetters: WordRule = {
  name: "letters typed many times",
  examples: [{ q: "violations last week pleeease", reads: { range: "lastweek" } }],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    if (!/([a-z])\1\1/.test(w)) return null;
    for (const once of [w.replace(/([a-z])\1{2,}/g, "$1$1"), w.replace(/([a-z])\1{2,}/g, "$1")])
      if (kept(once, ctx.names) || COURTESY_WORDS.has(once)) return { len: 1, words: [once], loose: true };
    return null;
  },
};

/**
 * "howmany", "lastweek", "overtime": two words typed without the space between them. A slip of one of
 * the account's names is that name, not two words ("infar" is infra typed fast, not "in far", which
 * would drop the name and answer for everything).
 */
const runTogether: WordRule = {
  name: "two words typed as one",
  examples: [
    { q: "howmany violations in payments", reads: { metrics: ["violations"], groups: ["payments"] } },
    { q: "infar violations last week", reads: { groups: ["infra"], range: "lastweek", readAs: ["infar"] } },
  ],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    if (w.length < 5 || !/^[a-z]+$/.test(w)) return null;
    const splits: string[][] = [];
    for (let k = 2; k <= w.length - 2; k++) {
      const a = w.slice(0, k);
      const b = w.slice(k);
      if (kept(a, ctx.names) && kept(b, ctx.names)) splits.push([a, b]);
    }
    // The name is looked for only once a split is found: most words have none, and the lookup is the
    // dearer step on a large account.
    if (splits.length !== 1 || slipOfName(ctx.names, w)) return null;
    return { len: 1, words: splits[0] as string[], loose: true };
  },
};

/** "viola tions", "find ings": one word typed with a space in it. */
const splitApart: WordRule = {
  name: "one word typed as two",
  examples: [{ q: "viola tions last week", reads: { metrics: ["violations"], range: "lastweek" } }],
  at(s, i, ctx) {
    const a = s.words[i] as string;
    const b = s.words[i + 1];
    if (b === undefined || !/^[a-z]+$/.test(a) || !/^[a-z]+$/.test(b)) return null;
    if (kept(a, ctx.names) || kept(b, ctx.names)) return null;
    const joined = `${a}${b}`;
    return kept(joined, ctx.names) ? { len: 2, words: [joined], loose: true } : null;
  },
};

/**
 * A short form of one of the account's names ("notifs", "plat", "fe"): kept as typed for the names to
 * read (short-names.ts), not put right into a word of the rules ("notifs" is no slip of "notify").
 */
const nameShortForm: WordRule = {
  name: "short forms of the account's names",
  examples: [
    { q: "notifs findings last week", reads: { assets: ["platform / notifications"], range: "lastweek" } },
    { q: "violations in plat", reads: { groups: ["platform"] } },
  ],
  at(s, i, ctx) {
    const w = s.words[i] as string;
    if (!/^[a-z0-9]+$/.test(w) || /^\d+$/.test(w)) return null;
    const short = ctx.names.short;
    return shortTarget(short, w) !== undefined || shortWord(short, w) !== undefined
      ? { len: 1, words: [w] }
      : null;
  },
};

/** "violatoins", "fidnings", "teh": a slip of a word the rules know, when one word is clearly meant. */
const slip: WordRule = {
  name: "slips",
  examples: [
    { q: "how many violatoins lst week", reads: { metrics: ["violations"], range: "lastweek" } },
    { q: "teh findings for payments", reads: { metrics: ["findings"], groups: ["payments"] } },
    { q: "wht are the numbrs for payments this mnth", reads: { groups: ["payments"], range: "thismonth" } },
    { q: "iolations in payments last week", reads: { metrics: ["violations"], groups: ["payments"] } },
  ],
  at(s, i) {
    const w = s.words[i] as string;
    const right = correction(w) ?? swapOf(w);
    return right ? { len: 1, words: [right], loose: true } : null;
  },
};

/** The word rules, tried in this order at each typed word: the first that reads it decides. */
export const WORD_RULES: readonly WordRule[] = [
  numberWords,
  asTyped,
  shortForms,
  gluedPeriod,
  spelling,
  verbForm,
  heldLetters,
  runTogether,
  splitApart,
  nameShortForm,
  slip,
];

export const WORD_EXAMPLES: readonly Example[] = [
  {
    q: "vulnerabilites in paymnets lastweek",
    reads: { metrics: ["findings"], groups: ["payments"], range: "lastweek" },
  },
];

/** The sentence of a question, and the words in it read by a guess. */
export function sentenceOf(
  text: string,
  botUserId: string | undefined,
  ctx: RuleContext,
): { sentence: Sentence; readAs: ReadAs[] } {
  const typed = new Sentence(wordsOf(text, botUserId));
  const out: string[] = [];
  const as: string[] = [];
  const readAs: ReadAs[] = [];
  for (let i = 0; i < typed.length; ) {
    const hit = firstAt(WORD_RULES, typed, i, ctx) ?? { len: 1, words: [typed.words[i] as string] };
    const said = typed.words.slice(i, i + hit.len).join(" ");
    for (const w of hit.words) {
      out.push(w);
      as.push(said);
    }
    if (hit.loose && hit.words.join(" ") !== said) readAs.push({ typed: said, as: hit.words.join(" ") });
    i += hit.len;
  }
  return { sentence: new Sentence(out, as), readAs };
}
