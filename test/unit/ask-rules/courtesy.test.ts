import { describe } from "vitest";
import { COURTESY_EXAMPLES } from "../../../src/ask/rules/courtesy.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/courtesy.ts", () => {
  itReadsExamples(COURTESY_EXAMPLES);
});
