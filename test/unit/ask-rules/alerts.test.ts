import { describe } from "vitest";
import { ALERT_EXAMPLES, ALERT_OVER_EXAMPLES } from "../../../src/ask/rules/alerts.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/alerts.ts", () => {
  itReadsExamples(ALERT_EXAMPLES);
  itReadsExamples(ALERT_OVER_EXAMPLES);
});
