import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { commandText } from "../../src/cli/words.ts";

/** What a POSIX shell hands the CLI for each way of typing the README's example. */
const SHELL_FORMS: [string, string[]][] = [
  [`preview last30d 'asset:"payments / api"'`, ["last30d", 'asset:"payments / api"']],
  [`preview last30d asset:"payments / api"`, ["last30d", "asset:payments / api"]],
  [`preview last30d "asset:payments / api"`, ["last30d", "asset:payments / api"]],
  [`preview last30d asset:'payments / api'`, ["last30d", "asset:payments / api"]],
  [`preview last30d asset:payments\\ /\\ api`, ["last30d", "asset:payments / api"]],
  [`preview last30d asset="payments / api"`, ["last30d", "asset=payments / api"]],
];

describe("commandText", () => {
  it.each(SHELL_FORMS)("%s reads as one asset filter", (_typed, argv) => {
    expect(parseCommand(commandText(argv))).toEqual({
      kind: "digest",
      range: "last30d",
      assets: ["payments / api"],
      scanners: [],
    });
  });

  it("keeps two filters apart and leaves plain words alone", () => {
    expect(commandText(["thisweek", "asset:payments / api", "scanner:sast"])).toBe(
      'thisweek asset:"payments / api" scanner:sast',
    );
    expect(parseCommand(commandText(["asset:a / b", "asset:c / d"]))).toMatchObject({
      assets: ["a / b", "c / d"],
    });
  });

  it("keeps a spaced word whole, so the error names what was typed", () => {
    expect(parseCommand(commandText(["last 7d"]))).toMatchObject({
      kind: "invalid",
      message: 'I don\'t know "last 7d".',
    });
  });

  it("joins the old way when nothing was split", () => {
    expect(commandText([])).toBe("");
    expect(commandText(["last7d", "scanner:sast"])).toBe("last7d scanner:sast");
  });
});
