import { createHash } from "node:crypto";
import type { FilterOption } from "../analytics/types.ts";
import { matchFilter } from "../digests/filter-match.ts";
import { isAppError } from "../errors.ts";
import { groupNameOf } from "../insights/asset-groups.ts";
import type { Sentence } from "./sentence.ts";
import { type ShortForms, shortForms, shortTarget, shortWord } from "./short-names.ts";
import { nameWords } from "./text.ts";
import { editDistance, FILLERS, KNOWN } from "./vocabulary.ts";

/**
 * Assets, asset groups and scanners named loosely ("payments", "the api", "secret scanning",
 * "sast"), resolved against the account's own lists. The slash command's rules come first (an id,
 * a full name, a unique child name, with the same suggestions when several match); a question also
 * knows asset groups, plural and singular, words of a scanner's name, and small misspellings. Every
 * match is shown back in the answer's understood line, so a wrong one is seen.
 */

export type Target =
  | { kind: "asset"; option: FilterOption }
  | { kind: "group"; name: string }
  | { kind: "scanner"; option: FilterOption };

export type SubjectHit =
  /** `loose`: read by a guess (a slip, a short form), which the answer says. */
  | ({ len: number; loose?: true } & Target)
  | { len: number; kind: "ambiguous"; typed: string; suggestions: string[] };

interface Entry {
  target: Target;
  strength: "name" | "child" | "word";
}

export interface NameIndex {
  entries: Map<string, Entry[]>;
  /** Scanners named by an acronym (`IaC`, `SCA`), by the acronym: "infrastructure as code" is `iac`. */
  acronyms: Map<string, FilterOption[]>;
  assets: readonly FilterOption[];
  scanners: readonly FilterOption[];
  /** Every word of every name, so the reader never "corrects" one into another word. */
  words: Set<string>;
  /** One-word names standing for one thing, by length: what a misspelt word is compared with. */
  singles: Map<number, { key: string; target: Target }[]>;
  /** One-word full names of five letters or more: what a longer word may start with. */
  prefixes: { key: string; target: Target }[];
  /** The short forms people make of the account's own names (short-names.ts). */
  short: ShortForms<Target>;
}

/** Singular of a word the simple English way: "payments" → "payment", "dependencies" → "dependency". */
export function stem(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return `${w.slice(0, -3)}y`;
  if (w.length > 3 && w.endsWith("s") && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/** The form names are compared in: words of the name, singular, hyphens as spaces. */
export function nameKey(text: string): string {
  return keyOf(nameWords(text));
}

/** Hyphens and slashes are how names are written, not what they say: "payments api" is `payments / api`. */
function keyOf(ws: readonly string[]): string {
  return ws
    .filter((w) => w !== "-" && w !== "/")
    .map(stem)
    .join(" ")
    .trim();
}

const targetId = (t: Target) => (t.kind === "group" ? `g:${t.name}` : `${t.kind}:${t.option.value}`);

function add(map: Map<string, Entry[]>, seen: Set<string>, key: string, entry: Entry): void {
  if (key === "") return;
  const id = `${key}\u0000${entry.strength}\u0000${targetId(entry.target)}`;
  if (seen.has(id)) return;
  seen.add(id);
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

/** Indexes of the lists seen lately: one account asks many questions of the same lists. */
const INDEXES = new Map<string, NameIndex>();
const KEPT_INDEXES = 16;

/** A digest of every id and name: equal lists, equal signature; a renamed asset changes it. */
function listsSignature(assets: readonly FilterOption[], scanners: readonly FilterOption[]): string {
  const text = (list: readonly FilterOption[]) =>
    list.map((o) => `${o.value}\u0000${o.displayValue}`).join("\u0000");
  return createHash("sha256")
    .update(`${text(assets)}\u0001${text(scanners)}`)
    .digest("base64");
}

/** The same list objects asked about again (one question's several lookups) skip even the digest. */
const BY_LIST = new WeakMap<
  readonly FilterOption[],
  { scanners: readonly FilterOption[]; index: NameIndex }
>();

/**
 * The lookup of an account's names. Building it reads every name (a few ms for thousands of
 * assets), so the last few are remembered by the lists' content.
 */
export function nameIndex(assets: readonly FilterOption[], scanners: readonly FilterOption[]): NameIndex {
  const same = BY_LIST.get(assets);
  if (same && same.scanners === scanners) return same.index;
  const signature = listsSignature(assets, scanners);
  const index = INDEXES.get(signature) ?? buildIndex(assets, scanners);
  if (!INDEXES.has(signature)) {
    if (INDEXES.size >= KEPT_INDEXES) INDEXES.delete(INDEXES.keys().next().value as string);
    INDEXES.set(signature, index);
  }
  BY_LIST.set(assets, { scanners, index });
  return index;
}

function buildIndex(assets: readonly FilterOption[], scanners: readonly FilterOption[]): NameIndex {
  const entries = new Map<string, Entry[]>();
  const seen = new Set<string>();
  const all = new Set<string>();
  for (const option of assets) {
    const target: Target = { kind: "asset", option };
    const ws = nameWords(option.displayValue);
    for (const w of ws) all.add(w);
    add(entries, seen, keyOf(ws), { target, strength: "name" });
    add(entries, seen, option.value.toLowerCase(), { target, strength: "name" });
    const { name, nested } = groupNameOf(option.displayValue);
    if (!nested) continue;
    add(entries, seen, nameKey(name), { target: { kind: "group", name }, strength: "name" });
    const child = option.displayValue.slice(option.displayValue.indexOf("/") + 1);
    const childWords = nameWords(child);
    add(entries, seen, keyOf(childWords), { target, strength: "child" });
    // "fraud" for "fraud-engine", "sso" for "sso-bridge": only when no other name has that word
    // (checked at lookup).
    for (const part of childWords)
      if (part.length >= 3 && part !== "-") add(entries, seen, stem(part), { target, strength: "word" });
  }
  const acronyms = new Map<string, FilterOption[]>();
  for (const option of scanners) {
    const target: Target = { kind: "scanner", option };
    const ws = nameWords(option.displayValue);
    for (const a of new Set([option.value.toLowerCase(), ws[0] ?? ""]))
      if (/^[a-z]{2,5}$/.test(a)) acronyms.set(a, [...(acronyms.get(a) ?? []), option]);
    for (const w of ws) all.add(w);
    all.add(option.value.toLowerCase());
    add(entries, seen, keyOf(ws), { target, strength: "name" });
    add(entries, seen, option.value.toLowerCase(), { target, strength: "name" });
    for (const part of ws)
      if (part.length >= 3 && part !== "-") add(entries, seen, stem(part), { target, strength: "word" });
  }
  const singles = new Map<number, { key: string; target: Target }[]>();
  const prefixes: { key: string; target: Target }[] = [];
  for (const [key, list] of entries) {
    if (key.includes(" ")) continue;
    const strong = distinct(list.filter((e) => e.strength !== "word"));
    if (strong.length === 1) {
      const row = singles.get(key.length) ?? [];
      row.push({ key, target: (strong[0] as Entry).target });
      singles.set(key.length, row);
    }
    if (key.length >= 5)
      for (const e of distinct(list.filter((x) => x.strength === "name")))
        prefixes.push({ key, target: e.target });
  }
  return {
    entries,
    acronyms,
    assets,
    scanners,
    words: all,
    singles,
    prefixes,
    short: shortForms<Target>(assets, scanners, (kind, option) => ({ kind, option })),
  };
}

function distinct(list: Entry[]): Entry[] {
  const seen = new Set<string>();
  return list.filter((e) => {
    const id = targetId(e.target);
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * A word several names share and nothing is named by alone ("service" in `auth-service` and
 * `tax-service`): said as "the service" (singular), it means one of them, and which is the question.
 */
function sharedWord(index: NameIndex, key: string): boolean {
  const list = index.entries.get(key) ?? [];
  return list.every((e) => e.strength === "word") && distinct(list).length > 1;
}

/**
 * What a name key stands for: one target, several (ambiguous), or nothing. A word several names
 * share is nothing unless `definite` ("the app"): then it is ambiguous.
 */
function lookup(
  index: NameIndex,
  key: string,
  typed: string,
  definite = false,
): Target | { ambiguous: string[] } | null {
  const list = index.entries.get(key) ?? [];
  for (const strength of ["name", "child", "word"] as const) {
    const found = distinct(list.filter((e) => e.strength === strength));
    if (found.length === 1) return (found[0] as Entry).target;
    if (found.length > 1 && strength === "word")
      return definite ? { ambiguous: found.slice(0, 5).map((e) => describe(e.target)) } : null;
    if (found.length > 1) {
      if (strength === "child" && found.every((e) => e.target.kind === "asset"))
        return { ambiguous: slashSuggestions(index, typed, found) };
      return { ambiguous: found.map((e) => describe(e.target)) };
    }
  }
  return null;
}

/** The slash command's own suggestions for an ambiguous asset name, so both say the same. */
function slashSuggestions(index: NameIndex, typed: string, found: Entry[]): string[] {
  try {
    matchFilter("asset", typed, index.assets);
  } catch (err) {
    const s = isAppError(err) ? err.details.suggestions : undefined;
    if (Array.isArray(s) && s.length > 0) return s.map(String);
  }
  return found.slice(0, 5).map((e) => describe(e.target));
}

/** How a subject is named in answers: `payments/*`, `payments / api`, `SAST`. */
export function describe(t: Target): string {
  return t.kind === "group" ? `${t.name}/*` : t.option.displayValue;
}

/** Words after a name that say it is one ("the data team", "payments assets"). */
const NAME_AFTER = new Set([
  "team",
  "teams",
  "group",
  "groups",
  "asset",
  "assets",
  "service",
  "services",
  "repo",
  "repos",
  "repositories",
  "project",
  "projects",
  "app",
  "apps",
  "scanner",
  "scanners",
  "scanning",
  "/",
]);
const NAME_BEFORE = new Set(["in", "for", "on", "of", "from", "at", "by", "team", "group"]);

/** The closest single-word name to a misspelt word, when one is clearly meant. */
function fuzzy(index: NameIndex, word: string): Target | null {
  return slipOfName(index, word) ?? prefixed(index, word);
}

/** The single-word name a word is a slip of ("paymnets", "infar"), when exactly one is that close. */
export function slipOfName(index: NameIndex, word: string): Target | null {
  if (word.length < 5 || !/^[a-z]+$/.test(word)) return null;
  const limit = word.length >= 8 ? 2 : 1;
  const typed = stem(word);
  let best: Target | null = null;
  let bestD = Number.POSITIVE_INFINITY;
  let tie = false;
  for (let length = typed.length - limit; length <= typed.length + limit; length++) {
    for (const { key, target } of index.singles.get(length) ?? []) {
      const d = editDistance(typed, key);
      if (d < bestD) {
        best = target;
        bestD = d;
        tie = false;
      } else if (d === bestD && best && targetId(best) !== targetId(target)) tie = true;
    }
  }
  return best && bestD <= limit && !tie ? best : null;
}

/** "infrastructure" for the group `infra`: a longer word that starts with one name, and only one. */
function prefixed(index: NameIndex, word: string): Target | null {
  if (word.length < 6) return null;
  const found = new Map<string, Target>();
  for (const { key, target } of index.prefixes) if (word.startsWith(key)) found.set(targetId(target), target);
  return found.size === 1 ? ([...found.values()][0] as Target) : null;
}

/**
 * The subject named at `i`, trying the longest run of words first (names have up to a handful of
 * words: `payments / fraud-engine` is five). A word that is also ordinary question English
 * ("data", "status") only counts as a name with a word around it that says so.
 */
export function subjectAt(s: Sentence, i: number, index: NameIndex, minWords = 1): SubjectHit | null {
  for (let n = Math.min(7, s.length - i); n >= minWords; n--) {
    const ws: string[] = [];
    for (let k = i; k < i + n; k++) {
      const w = s.free(k);
      if (w === undefined) break;
      ws.push(w);
    }
    if (ws.length < n) continue;
    if (ws[ws.length - 1] === "-" || ws[ws.length - 1] === "/" || ws[0] === "-" || ws[0] === "/") continue;
    // "payments/*": the group.
    const wildcard = n >= 3 && ws[n - 1] === "*" && ws[n - 2] === "/";
    const nameWords = wildcard ? ws.slice(0, -2) : ws;
    if (nameWords.includes("*")) continue;
    const key = keyOf(nameWords);
    const typed = s.typed
      .slice(i, i + n)
      .join(" ")
      .replace(/ - /g, "-")
      .replace(/ \/ /g, " / ");
    if (n === 1 && /^\d+$/.test(key)) continue;
    // "the app" when several assets are apps: which one is the question, not all of them.
    const definite =
      n === 1 && s.words[i - 1] === "the" && stem(ws[0] as string) === ws[0] && sharedWord(index, key);
    if (n === 1 && (KNOWN.has(ws[0] as string) || FILLERS.has(ws[0] as string))) {
      const before = s.words[i - 1];
      const after = s.words[i + 1];
      if (!NAME_BEFORE.has(before ?? "") && !NAME_AFTER.has(after ?? "") && !definite) continue;
    }
    const spelled = nameWords.filter((w) => w !== "-");
    const initials = spelled.map((w) => w[0]).join("");
    const acronym = n >= 2 && spelled.length === initials.length ? index.acronyms.get(initials) : undefined;
    if (acronym?.length === 1 && spelled.every((w) => /^[a-z]{2,}$/.test(w)))
      return { len: n, kind: "scanner", option: acronym[0] as FilterOption };
    const found = lookup(index, key, typed, definite);
    if (found && "ambiguous" in found)
      return { len: n, kind: "ambiguous", typed, suggestions: found.ambiguous };
    if (found) {
      if (wildcard && found.kind !== "group") continue;
      return { len: n, ...found };
    }
  }
  const short = shortAt(s, i, index, minWords);
  if (short) return short;
  const w = s.free(i);
  if (minWords > 1 || w === undefined || KNOWN.has(w) || FILLERS.has(w)) return null;
  const near = fuzzy(index, w);
  return near ? { len: 1, ...near, loose: true } : null;
}

/** A word the reader may take for a short form: not one of its own words, not a number. */
const shortenable = (index: NameIndex, w: string | undefined): w is string =>
  w !== undefined &&
  /^[a-z0-9]+$/.test(w) &&
  !/^\d+$/.test(w) &&
  !KNOWN.has(w) &&
  !FILLERS.has(w) &&
  !index.words.has(w);

/** Words after a short form that say it names a scanner ("dep scan", "img scanning"). */
const SCANNER_AFTER = new Set(["scan", "scans", "scanning", "scanner", "scanners"]);

/**
 * A word that is the initials of one name may also shorten a word of another ("dep": the initials of
 * data / etl-pipeline, the start of the SCA scanner's "dependencies"). Two short forms, two names:
 * only a word after it that says which kind ("dep scanning") takes one; else the person is asked
 * which, never answered for a guess.
 */
function shortOfTwo(s: Sentence, i: number, index: NameIndex, initials: Target, w: string): SubjectHit {
  const long = shortWord(index.short, w);
  const other = long === undefined ? null : lookup(index, keyOf([long]), w);
  if (!other || "ambiguous" in other || targetId(other) === targetId(initials))
    return { len: 1, ...initials, loose: true };
  const said = SCANNER_AFTER.has(s.free(i + 1) ?? "") ? "scanner" : undefined;
  const pick = [initials, other].find((t) => said !== undefined && t.kind === said);
  if (pick) return { len: 1, ...pick, loose: true };
  return {
    len: 1,
    kind: "ambiguous",
    typed: s.typed[i] ?? w,
    suggestions: [describe(initials), describe(other)],
  };
}

/**
 * A name said in a short form at `i` ("fe" for fraud-engine, "gw" for gateway, "plat" for platform,
 * "kubernetes manifests" for `k8s-manifests`, an id's first characters): read by a guess, so the
 * answer says it. Names of several words may have one word shortened ("fraud eng").
 */
function shortAt(s: Sentence, i: number, index: NameIndex, minWords: number): SubjectHit | null {
  const w = s.free(i);
  // A part of a word joined by hyphens ("sub-group") is no name by itself.
  const joined = (at: number) => s.words[at] === "-";
  if (joined(i - 1)) return null;
  if (minWords <= 1 && shortenable(index, w) && !joined(i + 1)) {
    const direct = shortTarget(index.short, w);
    if (direct) return shortOfTwo(s, i, index, direct, w);
  }
  for (let n = Math.min(4, s.length - i); n >= Math.max(minWords, 1); n--) {
    const ws: string[] = [];
    let changed = false;
    for (let k = i; k < i + n; k++) {
      const word = s.free(k);
      if (word === undefined) break;
      // A common word ("eng") is a short form only beside the rest of the name it shortens.
      const long = shortenable(index, word) ? shortWord(index.short, word, n > 1) : undefined;
      if (long) changed = true;
      else if (!index.words.has(word) && word !== "-" && word !== "/") break;
      ws.push(long ?? word);
    }
    if (!changed || ws.length < n || joined(i + n) || ws[n - 1] === "-" || ws[n - 1] === "/") continue;
    const key = keyOf(ws);
    const typed = s.typed.slice(i, i + n).join(" ");
    const found = lookup(index, key, typed);
    if (found && !("ambiguous" in found)) return { len: n, ...found, loose: true };
  }
  return null;
}
