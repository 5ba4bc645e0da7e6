import { describe } from "vitest";
import { METRIC_EXAMPLES } from "../../../src/ask/rules/metrics.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/metrics.ts", () => {
  itReadsExamples(METRIC_EXAMPLES);
});
