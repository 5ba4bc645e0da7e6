import { describe, expect, it } from "vitest";
import { readQuestion } from "../../../src/ask/read.ts";
import { NAME_EXAMPLES } from "../../../src/ask/rules/names.ts";
import { understoodText } from "../../../src/ask/understood.ts";
import { CORPUS_CONTEXT, CORPUS_TZ } from "../../fixtures/ask-corpus.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/names.ts", () => {
  itReadsExamples(NAME_EXAMPLES);

  it("a short form is derived from the account's own names: another account reads its own", () => {
    const assets = [
      { value: "x1", displayValue: "retail / order-service" },
      { value: "x2", displayValue: "retail / price-engine" },
    ];
    const ctx = { ...CORPUS_CONTEXT, assets, scanners: [] };
    expect(readQuestion("violations in pe", ctx).subjects.assets.map((a) => a.value)).toEqual(["x2"]);
    expect(readQuestion("violations in order svc", ctx).subjects.assets.map((a) => a.value)).toEqual(["x1"]);
    // The demo's short forms mean nothing here.
    expect(readQuestion("violations in fe", ctx).problem).toMatchObject({ kind: "unread" });
  });

  it("says the short form it read in the understood line", () => {
    expect(understoodText(readQuestion("findings in fe", CORPUS_CONTEXT), CORPUS_TZ)).toContain(
      "read “fe” as payments / fraud-engine",
    );
  });
});
