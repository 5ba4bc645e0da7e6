import { describe } from "vitest";
import { FILLER_EXAMPLES } from "../../../src/ask/rules/fillers.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/fillers.ts", () => {
  itReadsExamples(FILLER_EXAMPLES);
});
