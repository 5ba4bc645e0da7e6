import { describe, expect, it } from "vitest";
import { CORPUS, CORPUS_B } from "../fixtures/ask-corpus.ts";
import { HELDOUT, HELDOUT_B } from "../fixtures/ask-heldout.ts";
import { HELDOUT_C } from "../fixtures/ask-heldout-c.ts";
import { HELDOUT_D } from "../fixtures/ask-heldout-d.ts";
import { HELDOUT_E } from "../fixtures/ask-heldout-e.ts";
import { describeMiss, scoreBatch } from "../fixtures/ask-heldout-score.ts";

/**
 * The reader against the fifth held-out batch (test/fixtures/ask-heldout-e.ts): phrasings of the
 * kinds new users typed and the reader refused (emoji and courtesy, short names, typos, British
 * verbs, verb forms, numbers in words, elliptic comparisons, alerts and schedules as people say
 * them), and requests it must refuse. Each question ends one of three ways:
 * - read exactly: the reading the batch states (a refusal of the kind stated, for one meant to be
 *   refused);
 * - refused: examples instead of an answer, for a question that has a reading;
 * - answered wrongly: an answer (numbers, a proposed digest or alert) for another reading than the
 *   meant one, or for a question meant to be refused. The target is none.
 *
 * First scored on 2026-12-06, reader at c9de956 (main, before any change made for this batch):
 * 130/274 read exactly (47.4 %), 141 refused (51.5 %), 3 answered wrongly (1.1 %): "each evening at
 * 6" read as 06:00, "every night at 10" as 10:00, and "send me a report on the 1st" as a digest of
 * Nov 1. None of the 32 meant to be refused was answered (29 refused with the kind stated, 3 with
 * another). The gate below holds the wrong answers at or under that count, so it can only go down;
 * once it is 0, assert 0.
 *
 * Scored again once the reader was built for these kinds (reader at b82de39, this file's entries and
 * misses unread until then): 243/274 read exactly (88.7 %), 28 refused (10.2 %), 3 answered wrongly
 * (1.1 %), three others than before (the fixture's header names them); none of the 32 meant to be
 * refused was answered.
 *
 * Scored a third time (reader at fc2556e) after the classes of those three were fixed at their cause,
 * judged on a fresh batch (test/fixtures/ask-heldout-f.ts) written before the fixes, not on these
 * sentences: 246/274 read exactly (89.8 %), 28 refused (10.2 %), 0 answered wrongly. The two fix-rate
 * alerts stay refused: the alert engine's conditions watch findings, violations and fixes only.
 *
 * Issue 60 made the fix rate a condition alerts watch (`when fixrate < 60%`, the two entries respelt
 * from `fixRate` to the grammar's stored form): 248/274 read exactly (90.5 %), 26 refused (9.5 %), 0
 * answered wrongly.
 *
 * A one-off question's period is compared by its days (`lastmonth` and October are the same
 * request); a subscription's or an alert's by its name, since it is resolved again at every run
 * (`lastmonth` and October part ways in December). Working days as `weekdays HH:MM` and as
 * `weekly mon,tue,wed,thu,fri HH:MM` are the same schedule.
 *
 * Run alone to see the figures: npx vitest run test/unit/ask-heldout-e.test.ts --project unit
 */

/** The count of wrong answers when last scored (reader at fc2556e; 3 at c9de956 and b82de39): it may not rise. */
const WRONG_WHEN_LAST_SCORED = 0;

const { outcomes, count, share } = scoreBatch(HELDOUT_E);

describe("plain-language held-out batch E (2026-12-06, written before the reader's changes for it)", () => {
  it("has at least 200 questions and 25 meant to be refused, each unique and none from the sets before it", () => {
    expect(HELDOUT_E.length).toBeGreaterThanOrEqual(200);
    expect(HELDOUT_E.filter((e) => e.problem).length).toBeGreaterThanOrEqual(25);
    const lower = HELDOUT_E.map((e) => e.q.toLowerCase());
    expect(new Set(lower).size).toBe(HELDOUT_E.length);
    const earlier = new Set(
      [...CORPUS, ...CORPUS_B, ...HELDOUT, ...HELDOUT_B, ...HELDOUT_C, ...HELDOUT_D].map((e) =>
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
      `ask held-out E: ${exact}/${outcomes.length} read exactly (${share(exact)}), ${refused} refused (${share(refused)}), ${wrong} answered wrongly (${share(wrong)})`,
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
