import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { didYouMean } from "../../src/suggest.ts";

const CLI = ["demo", "start", "web", "worker", "emulator", "preview", "bench", "rotate-keys", "--version"];

describe("didYouMean", () => {
  it.each([
    ["previw", "preview"],
    ["PREVIEW", "preview"],
    ["wroker", "worker"],
    ["rotate-key", "rotate-keys"],
    ["--verison", "--version"],
    ["emultor", "emulator"],
  ])("suggests %s → %s", (typed, expected) => {
    expect(didYouMean(typed, CLI)).toBe(expected);
  });

  it("stays quiet for words that are not a typo of anything", () => {
    expect(didYouMean("deploy-everything", CLI)).toBeUndefined();
    expect(didYouMean("xyz", ["preview"])).toBeUndefined();
    expect(didYouMean("anything", [])).toBeUndefined();
  });

  it("is the one the slash-command grammar uses", () => {
    expect(parseCommand("lst7d")).toMatchObject({ suggestion: didYouMean("lst7d", ["last7d", "last14d"]) });
    expect(parseCommand("subscirbe weekly")).toMatchObject({ suggestion: "subscribe" });
  });
});
