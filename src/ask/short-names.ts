import type { FilterOption } from "../analytics/types.ts";
import { groupNameOf } from "../insights/asset-groups.ts";
import { COMMON_WORDS } from "./common-words.ts";
import { nameWords } from "./text.ts";

/**
 * The short forms people make of names, derived from the account's own names and ids (never a list
 * of names written here): the initials of a name of several words ("fe" for `fraud-engine`, "pfe" for
 * `payments / fraud-engine`, "ci" for `Container images`), the start of a word ("plat" for platform,
 * "notifs" for notifications), its consonants ("gw" for gateway, "tf" for terraform, "mktg"), a
 * numeronym either way ("k8s" and "kubernetes", "o11y" and "observability"), and an id's first
 * characters. Each is taken only when it stands for one thing, never for a common English word
 * (common-words.ts: "not" is no short form of `notifications`); the reader says it read it by a guess.
 */

export interface ShortForms<T = unknown> {
  /** Initials of names of two words or more, by the initials. */
  initials: Map<string, T[]>;
  /** Every word of every name, for the start of a word, its consonants and numeronyms. */
  words: readonly string[];
  /** Asset ids, lower case, for their first characters typed. */
  ids: readonly { id: string; target: T }[];
  /** What a typed word stood for, once worked out. */
  cache: Map<string, string | null>;
}

/** The words of a name, its punctuation left out ("SCA (dependencies)": sca, dependencies). */
const spelt = (name: string) => nameWords(name).filter((w) => /^[a-z0-9]+$/.test(w));

function initialsOf(words: readonly string[]): string | undefined {
  if (words.length < 2 || !words.every((w) => /^[a-z]/.test(w))) return undefined;
  return words.map((w) => w[0]).join("");
}

/** The short forms of an account's names, each standing for what `targetOf` makes of its option. */
export function shortForms<T>(
  assets: readonly FilterOption[],
  scanners: readonly FilterOption[],
  targetOf: (kind: "asset" | "scanner", option: FilterOption) => T,
): ShortForms<T> {
  const initials = new Map<string, T[]>();
  const words = new Set<string>();
  const ids: { id: string; target: T }[] = [];
  const addInitials = (letters: string | undefined, target: T) => {
    if (!letters) return;
    const list = initials.get(letters) ?? [];
    if (!list.includes(target)) list.push(target);
    initials.set(letters, list);
  };
  for (const option of assets) {
    const target = targetOf("asset", option);
    const all = spelt(option.displayValue);
    for (const w of all) words.add(w);
    addInitials(initialsOf(all), target);
    const { nested } = groupNameOf(option.displayValue);
    if (nested)
      addInitials(initialsOf(spelt(option.displayValue.slice(option.displayValue.indexOf("/") + 1))), target);
    // Ids long enough that their first characters are typed instead (a UUID's first group).
    if (option.value.length >= 16) ids.push({ id: option.value.toLowerCase(), target });
  }
  for (const option of scanners) {
    const target = targetOf("scanner", option);
    const all = spelt(option.displayValue);
    for (const w of all) words.add(w);
    addInitials(initialsOf(all), target);
  }
  return { initials, words: [...words].filter((w) => w.length >= 3), ids, cache: new Map() };
}

/** The one thing `word` stands for as initials or as the start of an id, if it is one. */
export function shortTarget<T>(short: ShortForms<T>, word: string): T | undefined {
  if (COMMON_WORDS.has(word)) return undefined;
  const byInitials = word.length >= 2 && /^[a-z]+$/.test(word) ? short.initials.get(word) : undefined;
  if (byInitials?.length === 1) return byInitials[0];
  if (word.length < 6 || !/\d/.test(word)) return undefined;
  const ids = short.ids.filter((x) => x.id.startsWith(word));
  return ids.length === 1 ? ids[0]?.target : undefined;
}

const VOWELS = /[aeiou]/;

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const c of long) if (c === short[at]) at++;
  return at === short.length;
}

/** `k8s` for kubernetes: the first letter, how many letters between, the last. */
function numeronym(word: string): string {
  return `${word[0]}${word.length - 2}${word[word.length - 1]}`;
}

/** The single name word `word` is a short form of, or undefined (none, or several). */
function wordFor(words: readonly string[], word: string): string | undefined {
  const one = (found: string[]) => {
    const distinct = [...new Set(found)];
    return distinct.length === 1 ? distinct[0] : undefined;
  };
  // A numeronym either way: "k8s" typed for a name's "kubernetes", "kubernetes" for a name's "k8s".
  if (/^[a-z]\d{1,2}[a-z]$/.test(word)) {
    const n = one(words.filter((w) => w.length >= 4 && numeronym(w) === word));
    if (n) return n;
  }
  if (/^[a-z]{4,}$/.test(word)) {
    const n = one(words.filter((w) => /^[a-z]\d{1,2}[a-z]$/.test(w) && numeronym(word) === w));
    if (n) return n;
  }
  if (!/^[a-z]+$/.test(word)) return undefined;
  // The start of a word ("plat", "notifs", "deps"): three letters or more, two short of the word at least.
  if (word.length >= 3) {
    const stemmed = word.endsWith("s") && word.length >= 4 ? word.slice(0, -1) : word;
    const start = one(words.filter((w) => w.length >= stemmed.length + 2 && w.startsWith(stemmed)));
    if (start) return start;
  }
  // Its consonants ("gw", "tf", "cfg", "mktg"): a first letter, then no vowel, in the word's order.
  if (word.length >= 2 && !VOWELS.test(word.slice(1)))
    return one(words.filter((w) => w[0] === word[0] && w.length > word.length && isSubsequence(word, w)));
  return undefined;
}

/**
 * The name word a typed word is a short form of, if exactly one (remembered per account). A common
 * word is one only with `common`: beside the rest of a name ("fraud eng").
 */
export function shortWord(short: ShortForms<unknown>, word: string, common = false): string | undefined {
  if (COMMON_WORDS.has(word) && !common) return undefined;
  const known = short.cache.get(word);
  if (known !== undefined) return known ?? undefined;
  const found = wordFor(short.words, word);
  // Bounded: the words people type are many, the account's names few.
  if (short.cache.size >= 5_000) short.cache.clear();
  short.cache.set(word, found ?? null);
  return found;
}
