import { describe } from "vitest";
import { HELP_EXAMPLES } from "../../../src/ask/rules/help.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/help.ts", () => {
  itReadsExamples(HELP_EXAMPLES);
});
