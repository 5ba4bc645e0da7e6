import { Sentence } from "../sentence.ts";
import type { NameIndex } from "../subjects.ts";
import { words } from "../text.ts";
import { ABBREVIATIONS, correction, FILLERS, KNOWN } from "../vocabulary.ts";
import { isZoneWord } from "../zones.ts";

/**
 * The words of a question as the rules read them: typed slips put right, short forms spelt out.
 * A word of the account's own names, or one a rule knows, is never changed.
 */

/** The sentence of a question: its words, each put right where it is clearly a slip. */
export function sentenceOf(text: string, botUserId: string | undefined, names: NameIndex): Sentence {
  const typed = words(text, botUserId);
  const corrected = typed.map((w, i) => {
    if (names.words.has(w) || KNOWN.has(w) || FILLERS.has(w) || isZoneWord(w)) return w;
    // "sub me to …": subscribe, only where it can mean that ("sub-group" is something else).
    if (w === "sub") return i === 0 || ["me", "to", "us"].includes(typed[i + 1] ?? "") ? "subscribe" : w;
    return (Object.hasOwn(ABBREVIATIONS, w) ? ABBREVIATIONS[w] : undefined) ?? correction(w) ?? w;
  });
  return new Sentence(corrected, typed);
}
