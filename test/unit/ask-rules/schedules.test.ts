import { describe } from "vitest";
import { SCHEDULE_EXAMPLES, SCHEDULE_RULES } from "../../../src/ask/rules/schedules.ts";
import { TIME_EXAMPLES } from "../../../src/ask/rules/times.ts";
import { itReadsExamples, itReadsRules } from "./examples.ts";

describe("rules/schedules.ts", () => {
  itReadsRules(SCHEDULE_RULES);
  itReadsExamples(SCHEDULE_EXAMPLES);
});

describe("rules/times.ts", () => {
  itReadsExamples(TIME_EXAMPLES);
});
