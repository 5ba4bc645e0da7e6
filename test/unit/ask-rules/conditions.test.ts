import { describe } from "vitest";
import { CONDITION_RULES } from "../../../src/ask/rules/conditions.ts";
import { itReadsRules } from "./examples.ts";

describe("rules/conditions.ts", () => {
  itReadsRules(CONDITION_RULES);
});
