import { closest, distance } from "fastest-levenshtein";

/**
 * "Did you mean …?": the candidate closest to `word` (case-insensitive), or undefined when even the
 * closest is too far to be a plausible typo. The slash-command grammar and the CLI share it, so a
 * misspelling gets the same help wherever it is typed.
 *
 * @example didYouMean("lst7d", ["last7d", "last30d"]) // "last7d"
 */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const lower = word.toLowerCase();
  const best = closest(lower, [...candidates]);
  // A third of the candidate's length (at least 2 edits) tells a typo from an unrelated word.
  return distance(lower, best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}
