import { describe } from "vitest";
import { SENDING_EXAMPLES } from "../../../src/ask/rules/sending.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/sending.ts", () => {
  itReadsExamples(SENDING_EXAMPLES);
});
