import type { IsoDay } from "../../analytics/types.ts";
import type { Sentence } from "../sentence.ts";
import type { NameIndex } from "../subjects.ts";
import type { AskIntent, AskMetric, AskProblem } from "../types.ts";

/**
 * The shape every rule of the reader has: a name, the phrases it reads as examples, and a function
 * that reads its phrase at one position of a sentence. Rules live in one file per kind of phrase
 * (src/ask/rules/<kind>.ts); each file's test runs its rules' examples through the whole reader, so an
 * example is both the rule's documentation and a test that fails when another rule takes its words.
 */

/**
 * What a reading must hold for an example, in the terms the question corpora use; a field left out is
 * not checked. `range` is the slash command's form (`lastweek`, `last30d`, `yesterday`) or the days
 * (`2026-11-09..2026-11-15`, one day alone); `schedule` is `hourly`, `daily 08:00`, `weekdays 08:00`,
 * `weekly mon,thu 09:00`, `monthly 1 09:00`, `monthly first mon 09:00`, `monthly lastworkday 17:00`,
 * `quarterly 1 09:00`; `readAs` lists words read loosely, as the understood line shows them.
 */
export interface Reads {
  intent?: AskIntent;
  range?: string;
  vs?: string;
  metrics?: AskMetric[];
  assets?: string[];
  groups?: string[];
  scanners?: string[];
  schedule?: string;
  condition?: string;
  problem?: AskProblem["kind"];
  readAs?: string[];
}

/** One phrase a rule reads, as a whole question (asked on Wednesday 2026-11-18 at 16:00, Berlin). */
export interface Example {
  q: string;
  reads: Reads;
}

/** What a rule needs besides the words: today in the person's zone, and the account's names. */
export interface RuleContext {
  today: IsoDay;
  names: NameIndex;
}

/**
 * A rule: reads its phrase at `i` (only free words: a word another rule claimed is not there), and
 * returns how many words it took with what it read, or null.
 */
export interface Rule<H extends { len: number }> {
  /** The phrase it reads, in a few words ("last N days, weeks or months"). */
  readonly name: string;
  readonly examples: readonly Example[];
  readonly at: (s: Sentence, i: number, ctx: RuleContext) => H | null;
}

/** The first rule of `rules` that reads something at `i`: a rule table is tried in its order. */
export function firstAt<H extends { len: number }>(
  rules: readonly Rule<H>[],
  s: Sentence,
  i: number,
  ctx: RuleContext,
): H | null {
  for (const rule of rules) {
    const hit = rule.at(s, i, ctx);
    if (hit) return hit;
  }
  return null;
}

/** Calls `at(i)` at every free word; `at` returns how many words it claimed (0: none). */
export function scan(s: Sentence, at: (i: number) => number): void {
  for (let i = 0; i < s.length; i++) {
    if (s.isClaimed(i)) continue;
    const n = at(i);
    if (n > 0) {
      s.claim(i, n);
      i += n - 1;
    }
  }
}
