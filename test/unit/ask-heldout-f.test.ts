import { describe, expect, it } from "vitest";
import { CORPUS, CORPUS_B } from "../fixtures/ask-corpus.ts";
import { HELDOUT, HELDOUT_B } from "../fixtures/ask-heldout.ts";
import { HELDOUT_C } from "../fixtures/ask-heldout-c.ts";
import { HELDOUT_D } from "../fixtures/ask-heldout-d.ts";
import { HELDOUT_E } from "../fixtures/ask-heldout-e.ts";
import { HELDOUT_F } from "../fixtures/ask-heldout-f.ts";
import { describeMiss, scoreBatch } from "../fixtures/ask-heldout-score.ts";

/**
 * The reader against the sixth held-out batch (test/fixtures/ask-heldout-f.ts): phrasings of the kinds
 * batch E covered, none of its sentences, and over 40 built like the three classes E still answered
 * wrongly (a vague greeting, a scanner's or product's word taken for an asset, "week over week" ranges),
 * written before the reader was changed for them. Each question ends one of three ways:
 * - read exactly: the reading the batch states (a refusal of the kind stated, for one meant to be
 *   refused);
 * - refused: examples instead of an answer, for a question that has a reading;
 * - answered wrongly: an answer (numbers, a proposed digest or alert, the examples as `help`) for
 *   another reading than the meant one, or for a question meant to be refused. The target is none.
 *
 * First scored on 2026-12-06, reader at 72342bd (before any change made for this batch): 223/262 read
 * exactly (85.1 %), 28 refused (10.7 %), 11 answered wrongly (4.2 %):
 * - a pleasantry answered with numbers: "hope you're doing well!" (the default digest);
 * - a word taken for an asset: "dep scan violations last month" ("dep" as the initials of
 *   data / etl-pipeline), "where can I find the docs?" (the `docs` asset's digest), "infar violations
 *   since monday" ("infar" read as "in far" and dropped, not as infra);
 * - "fixed findings in october for growth" read as fixes and findings (it is the fixes);
 * - five alerts whose "week over week" / "month over month" became the range last week or last month
 *   (climb 20% WoW, fall 10% week-on-week, up 25% MoM, sast up 30% WoW, double WoW);
 * - one meant to be refused that was answered: "how many repos do we scan" (the default digest).
 * None of the others meant to be refused was answered (42 of 43 refused, 40 with the kind stated).
 *
 * After the classes were fixed at their cause in the rules (reader at fc2556e; each fix with examples of
 * its own in its rule's file, none of these sentences): 239/262 read exactly (91.2 %), 23 refused
 * (8.8 %), 0 answered wrongly; all 43 meant to be refused were refused (41 with the kind stated).
 *
 * Issue 60 made the fix rate a condition alerts watch, and the three fix-rate alerts this batch expected
 * refused now expect the alert (see the fixture). Reader at the fixrate branch: 238/262 read exactly
 * (90.8 %), 24 refused (9.2 %), 0 answered wrongly; "warn me when the fix rate goes under half" is the
 * one of the three refused ("half" is not read as 50 %), left untuned.
 *
 * A one-off question's period is compared by its days (`lastmonth` and October are the same
 * request); a subscription's or an alert's by its name, since it is resolved again at every run
 * (`lastmonth` and October part ways in December). Working days as `weekdays HH:MM` and as
 * `weekly mon,tue,wed,thu,fri HH:MM` are the same schedule.
 *
 * Run alone to see the figures: npx vitest run test/unit/ask-heldout-f.test.ts --project unit
 */

/** The count of wrong answers when last scored (reader at fc2556e; 11 at 72342bd): it may not rise. */
const WRONG_WHEN_LAST_SCORED = 0;

const { outcomes, count, share } = scoreBatch(HELDOUT_F);

describe("plain-language held-out batch F (2026-12-06, written before the reader's changes for it)", () => {
  it("has at least 200 questions and 30 meant to be refused, each unique and none from the sets before it", () => {
    expect(HELDOUT_F.length).toBeGreaterThanOrEqual(200);
    expect(HELDOUT_F.filter((e) => e.problem).length).toBeGreaterThanOrEqual(30);
    const lower = HELDOUT_F.map((e) => e.q.toLowerCase());
    expect(new Set(lower).size).toBe(HELDOUT_F.length);
    const earlier = new Set(
      [...CORPUS, ...CORPUS_B, ...HELDOUT, ...HELDOUT_B, ...HELDOUT_C, ...HELDOUT_D, ...HELDOUT_E].map((e) =>
        e.q.toLowerCase(),
      ),
    );
    expect(lower.filter((q) => earlier.has(q))).toEqual([]);
  });

  it("prints its figures and answers no more questions wrongly than when first scored", () => {
    const exact = count("exact");
    const refused = count("refused");
    const wrong = count("wrong");
    console.log(
      `ask held-out F: ${exact}/${outcomes.length} read exactly (${share(exact)}), ${refused} refused (${share(refused)}), ${wrong} answered wrongly (${share(wrong)})`,
    );
    for (const o of outcomes) if (o.verdict !== "exact") console.log(describeMiss(o));
    expect(exact + refused + wrong).toBe(outcomes.length);
    expect(wrong).toBeLessThanOrEqual(WRONG_WHEN_LAST_SCORED);
  });

  it("answers none of its questions meant to be refused: those get examples, never numbers", () => {
    expect(outcomes.filter((o) => o.entry.problem && o.verdict === "wrong").map((o) => o.entry.q)).toEqual(
      [],
    );
  });
});
