import { todayIn } from "../insights/dayjs.ts";
import { decide, defaultRange, subjectNames } from "./decide.ts";
import { runPasses } from "./driver.ts";
import { sentenceOf } from "./rules/words.ts";
import { nameIndex } from "./subjects.ts";
import { MAX_QUESTION_CHARS, questionLength } from "./text.ts";
import type { AskContext, AskReading } from "./types.ts";

export { subjectNames };

/**
 * Reads a question in plain English into the request the slash command builds (range, filters,
 * what to show) plus what a question adds (a named comparison, a metric, a proposed schedule).
 * Pure and deterministic: time, zone and the account's names come in as arguments. Every word is
 * either claimed by a rule or reported back as not understood; such a question is answered with
 * examples, never with numbers for a guess.
 *
 * Three steps: the words (slips put right, src/ask/rules/words.ts), the passes that read them
 * (driver.ts, one per kind of phrase), and the decisions made from what they found (decide.ts).
 *
 * @example readQuestion("why did violations go up in payments last week?", ctx).intent // "drivers"
 */
export function readQuestion(text: string, ctx: AskContext): AskReading {
  const today = todayIn(ctx.now, ctx.tz);
  const limit = ctx.maxChars ?? MAX_QUESTION_CHARS;
  const chars = questionLength(text, ctx.botUserId);
  // A question refused whole for its length: nothing of it is read, so nothing of it is answered.
  if (chars > limit)
    return {
      intent: "help",
      metrics: [],
      range: defaultRange(today),
      rangeSaid: false,
      subjects: { assets: [], groups: [], scanners: [] },
      notes: [],
      problem: { kind: "too_long", chars, limit },
    };
  const names = nameIndex(ctx.assets, ctx.scanners);
  const rules = { today, names };
  const { sentence, readAs } = sentenceOf(text, ctx.botUserId, rules);
  const found = runPasses(sentence, rules, readAs);
  return decide(sentence, found, today, ctx.tz);
}
