import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { readQuestion } from "../../src/ask/read.ts";
import { CORPUS_CONTEXT } from "../fixtures/ask-corpus.ts";

/**
 * Monthly and quarterly schedules asked for in a DM. A question's proposal carries hourly, daily and
 * weekly schedules, so these are refused, and the answer gives the slash command that sets them up,
 * with the day, time and range that were said: the command it quotes must be one the slash command
 * reads as meant.
 */

const read = (q: string) => readQuestion(q, CORPUS_CONTEXT);

/** The command quoted in the refusal, parsed by the slash command's own parser. */
function quoted(q: string) {
  const r = read(q);
  expect(r.problem?.kind, q).toBe("bad_condition");
  const message = r.problem && "message" in r.problem ? r.problem.message : "";
  const command = /`\/insights (subscribe me [^`]+)`/.exec(message)?.[1];
  if (!command) throw new Error(`no command in: ${message}`);
  return { message, command, parsed: parseCommand(command) };
}

describe("monthly and quarterly schedules in a question", () => {
  it.each([
    [
      "can you send me the digest on the first monday of every month?",
      "monthly first mon 09:00",
      { frequency: "monthly", on: { kind: "weekday", nth: 1, weekday: "mon" }, time: "09:00" },
    ],
    [
      "send me violations on the last working day of every month at 5pm",
      "monthly last workday 17:00",
      { frequency: "monthly", on: { kind: "workday", which: "last" }, time: "17:00" },
    ],
    [
      "email me violations every month on the 15th",
      "monthly 15th 09:00",
      { frequency: "monthly", on: { kind: "day", day: 15 } },
    ],
    [
      "send me last month every month",
      "monthly 09:00 lastmonth",
      { frequency: "monthly", range: "lastmonth" },
    ],
    ["send me findings every quarter", "quarterly 09:00", { frequency: "quarterly" }],
    [
      "send me findings once a quarter on the 1st",
      "quarterly 1st 09:00",
      { frequency: "quarterly", on: { kind: "day", day: 1 } },
    ],
    [
      "send me the digest on the last business day of every quarter",
      "quarterly last workday 09:00",
      { frequency: "quarterly", on: { kind: "workday", which: "last" } },
    ],
  ])("%s → subscribe me %s", (q, command, meant) => {
    const got = quoted(q);
    expect(got.command).toBe(`subscribe me ${command}`);
    expect(got.parsed).toMatchObject({ kind: "subscribeMe", ...meant });
  });

  it("a weekday said without which one gets an example and the question back", () => {
    const got = quoted("send me a monthly digest every Monday");
    expect(got.message).toContain("say which Monday: first to fourth, or last");
    expect(got.parsed).toMatchObject({ kind: "subscribeMe", frequency: "monthly" });
  });

  it("working days are a weekly Mon–Fri schedule, which a question proposes", () => {
    expect(read("remind me every weekday at 9am").schedule).toEqual({
      frequency: "weekly",
      days: ["mon", "tue", "wed", "thu", "fri"],
      time: "09:00",
    });
  });
});
