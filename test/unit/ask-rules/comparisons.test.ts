import { describe } from "vitest";
import { COMPARISON_RULES } from "../../../src/ask/rules/comparisons.ts";
import { itReadsRules } from "./examples.ts";

describe("rules/comparisons.ts", () => {
  itReadsRules(COMPARISON_RULES);
});
