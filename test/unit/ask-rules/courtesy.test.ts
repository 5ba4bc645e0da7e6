import { describe, expect, it } from "vitest";
import { readQuestion } from "../../../src/ask/read.ts";
import { COURTESY_RULES } from "../../../src/ask/rules/courtesy.ts";
import { CORPUS_CONTEXT } from "../../fixtures/ask-corpus.ts";
import { itReadsRules } from "./examples.ts";

describe("rules/courtesy.ts", () => {
  itReadsRules(COURTESY_RULES);

  it("emoji, as characters or as faces, are passed over (they were words it could not read)", () => {
    for (const q of [
      "violations last week 👍",
      "🚀 findings in payments this month 🙏🏽",
      "how are we doing :) ?",
      "fixes this week ^_^",
    ])
      expect([q, readQuestion(q, CORPUS_CONTEXT).problem]).toEqual([q, undefined]);
  });

  it("an account's name is never passed over as courtesy", () => {
    const assets = [{ value: "a1", displayValue: "cheers / api" }];
    const r = readQuestion("violations in cheers last week", { ...CORPUS_CONTEXT, assets });
    expect(r.subjects.groups).toEqual(["cheers"]);
  });
});
