import { describe } from "vitest";
import { INTENT_EXAMPLES } from "../../../src/ask/rules/intents.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/intents.ts", () => {
  itReadsExamples(INTENT_EXAMPLES);
});
