import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readQuestion } from "../../../src/ask/read.ts";
import { sentenceOf, WORD_EXAMPLES, WORD_RULES } from "../../../src/ask/rules/words.ts";
import { patternWords } from "../../../src/ask/sentence.ts";
import { nameIndex } from "../../../src/ask/subjects.ts";
import { understoodText } from "../../../src/ask/understood.ts";
import { ABBREVIATIONS } from "../../../src/ask/vocabulary.ts";
import { CORPUS, CORPUS_B, CORPUS_CONTEXT, CORPUS_TZ } from "../../fixtures/ask-corpus.ts";
import { HELDOUT, HELDOUT_B } from "../../fixtures/ask-heldout.ts";
import { HELDOUT_C } from "../../fixtures/ask-heldout-c.ts";
import { HELDOUT_D } from "../../fixtures/ask-heldout-d.ts";
import { itReadsExamples, itReadsRules } from "./examples.ts";

const read = (q: string) => readQuestion(q, CORPUS_CONTEXT);

describe("rules/words.ts", () => {
  itReadsRules(WORD_RULES);
  itReadsExamples(WORD_EXAMPLES);

  it("says every word it read by a guess in the understood line", () => {
    const r = read("how many violatoins in paymnets lst week");
    expect(r.readAs).toEqual([
      { typed: "violatoins", as: "violations" },
      { typed: "paymnets", as: "payments/*" },
    ]);
    expect(understoodText(r, CORPUS_TZ)).toContain(
      "read “violatoins” as violations, “paymnets” as payments/*",
    );
    // Words read as they are, and short forms everyone writes, are no guess.
    expect(read("violations lst wk pls").readAs).toBeUndefined();
  });

  it("an account's names are never read as anything else", () => {
    const assets = [{ value: "a1", displayValue: "fixing / summarise-api" }];
    const r = readQuestion("violations in fixing last week", { ...CORPUS_CONTEXT, assets });
    expect([r.subjects.groups, r.metrics]).toEqual([["fixing"], ["violations"]]);
  });

  it("a British spelling reads as an account's American one, and the other way round", () => {
    const scanners = [{ value: "lic", displayValue: "License compliance" }];
    expect(
      readQuestion("licence findings this month", { ...CORPUS_CONTEXT, scanners }).subjects.scanners,
    ).toEqual(scanners);
    const assets = [{ value: "a1", displayValue: "data-centre / api" }];
    expect(readQuestion("violations in data center", { ...CORPUS_CONTEXT, assets }).subjects.groups).toEqual([
      "data-centre",
    ]);
  });

  it("no word of a rule's phrases is changed into another before the rules read it", () => {
    // The phrases are the `|` patterns in the reader's source, and those the corpora exercise.
    for (const e of [...CORPUS, ...CORPUS_B, ...HELDOUT, ...HELDOUT_B, ...HELDOUT_C, ...HELDOUT_D]) read(e.q);
    const words = new Set([...patternWords()].filter((w) => /^[a-z']+$/.test(w)));
    for (const dir of [SRC, `${SRC}/rules`])
      for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts")))
        for (const m of readFileSync(`${dir}/${file}`, "utf8").matchAll(PATTERN_LITERAL))
          for (const w of (m[1] as string).replace(/\?/g, "").split(/[ |]/))
            if (/^[a-z']+$/.test(w)) words.add(w);
    expect(words.size).toBeGreaterThan(300);
    const ctx = { today: "2026-11-18", names: nameIndex(CORPUS_CONTEXT.assets, CORPUS_CONTEXT.scanners) };
    // Short forms ("pls", "thx") are read as the words the phrases also hold.
    const changed = [...words].filter(
      (w) => !Object.hasOwn(ABBREVIATIONS, w) && sentenceOf(w, undefined, ctx).sentence.words.join(" ") !== w,
    );
    expect(changed).toEqual([]);
  });
});

const SRC = new URL("../../../src/ask", import.meta.url).pathname;
/** A string literal holding a `|`: a rule's phrase. */
const PATTERN_LITERAL = /["`]([a-z0-9' |?\-/&+<>=%:]*\|[a-z0-9' |?\-/&+<>=%:]*)["`]/g;
