import { describe } from "vitest";
import { MANAGE_EXAMPLES } from "../../../src/ask/rules/manage.ts";
import { itReadsExamples } from "./examples.ts";

describe("rules/manage.ts", () => {
  itReadsExamples(MANAGE_EXAMPLES);
});
