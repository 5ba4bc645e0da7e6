import { describe } from "vitest";
import { PERIOD_EXAMPLES, PERIOD_RULES } from "../../../src/ask/rules/periods.ts";
import { itReadsExamples, itReadsRules } from "./examples.ts";

describe("rules/periods.ts and its kinds (periods-relative.ts, periods-calendar.ts, periods-refused.ts)", () => {
  itReadsRules(PERIOD_RULES);
  itReadsExamples(PERIOD_EXAMPLES);
});
