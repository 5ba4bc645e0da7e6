import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { decodeProposal, encodeProposal, proposalOf } from "../../src/ask/proposal.ts";
import { readQuestion } from "../../src/ask/read.ts";
import { slashText } from "../../src/ask/request.ts";
import { understoodText } from "../../src/ask/understood.ts";
import { scheduleOfProposal } from "../../src/slack/ask-proposal.ts";
import { nextRuns } from "../../src/subscriptions/schedule.ts";
import { CORPUS_CONTEXT, CORPUS_TZ } from "../fixtures/ask-corpus.ts";

/**
 * Monthly, quarterly and working-day schedules asked for in a DM: proposed like the others, with the
 * day, time and range that were said. The slash command the answer shows is one the command's own
 * parser reads as the same schedule, and the proposal's Confirm button carries it whole, so the
 * subscription it makes runs when the reading said.
 */

const read = (q: string) => readQuestion(q, CORPUS_CONTEXT);

/** The proposal as its Confirm button carries it, and back. */
function confirmed(q: string) {
  const e = encodeProposal(proposalOf(read(q)));
  if (!("value" in e)) throw new Error("expected the proposal to fit its button");
  const back = decodeProposal(e.value);
  if (back.kind !== "proposal") throw new Error("expected the proposal itself");
  return back.proposal;
}

describe("monthly and quarterly schedules in a question", () => {
  it.each([
    [
      "can you send me the digest on the first monday of every month?",
      "monthly first mon 09:00 lastmonth",
      { frequency: "monthly", on: { kind: "weekday", nth: 1, weekday: "mon" }, time: "09:00" },
    ],
    [
      "send me violations on the last working day of every month at 5pm",
      "monthly last workday 17:00 thismonth",
      { frequency: "monthly", on: { kind: "workday", which: "last" }, time: "17:00" },
    ],
    [
      "email me violations every month on the 15th",
      "monthly 15th 09:00 lastmonth",
      { frequency: "monthly", on: { kind: "day", day: 15 } },
    ],
    [
      "send me last month every month",
      "monthly 1st 09:00 lastmonth",
      { frequency: "monthly", range: "lastmonth" },
    ],
    [
      "send me findings every quarter",
      "quarterly 1st 09:00 lastquarter",
      { frequency: "quarterly", range: "lastquarter" },
    ],
    [
      "send me findings once a quarter on the 1st",
      "quarterly 1st 09:00 lastquarter",
      { frequency: "quarterly", on: { kind: "day", day: 1 } },
    ],
    [
      "send me the digest on the last business day of every quarter",
      "quarterly last workday 09:00 thisquarter",
      { frequency: "quarterly", on: { kind: "workday", which: "last" }, range: "thisquarter" },
    ],
  ])("%s → subscribe me %s", (q, command, meant) => {
    const r = read(q);
    expect(r.problem, understoodText(r, CORPUS_TZ)).toBeUndefined();
    expect(slashText(r)).toMatch(new RegExp(`^subscribe me ${command}`));
    expect(parseCommand(slashText(r) as string)).toMatchObject({ kind: "subscribeMe", ...meant });
  });

  it("says the day in the understood line, in the subscription's own words", () => {
    expect(
      understoodText(read("send me violations on the last working day of every month at 5pm"), CORPUS_TZ),
    ).toContain("monthly on the last working day (Mon–Fri) at 17:00");
    expect(understoodText(read("send me findings every quarter"), CORPUS_TZ)).toContain(
      "quarterly on the 1st of Jan, Apr, Jul, Oct at 09:00",
    );
  });

  it("a weekday said without which one is asked about, with an example", () => {
    expect(read("send me a monthly digest every Monday").problem).toMatchObject({
      kind: "bad_condition",
      message: expect.stringContaining("say which Monday (first to fourth, or last)"),
    });
  });

  it("working days are the weekdays schedule, however they are said", () => {
    for (const q of [
      "remind me every weekday at 9am",
      "mon-fri at 9",
      "send me a digest at 9 every day except weekends",
    ])
      expect([q, read(q).schedule]).toEqual([q, { frequency: "weekdays", days: [], time: "09:00" }]);
  });
});

describe("the Confirm button carries the schedule", () => {
  it.each([
    ["send me violations on the last working day of every month at 5pm", "monthly"],
    ["send me findings on the second tuesday of every quarter", "quarterly"],
    ["remind me every weekday at 9am", "weekdays"],
  ])("%s (%s): the subscription it makes runs when the reading said", (q, kind) => {
    const reading = read(q);
    const p = confirmed(q);
    expect(p.schedule).toEqual(reading.schedule);
    const schedule = scheduleOfProposal(p);
    expect(schedule.kind).toBe(kind);
    // The first runs of what Confirm sets up, from the corpus's clock.
    const runs = nextRuns(schedule, p.schedule.time, CORPUS_TZ, CORPUS_CONTEXT.now, 2);
    expect(runs).toHaveLength(2);
  });

  it("refuses a calendar schedule without its day, and a day on any other schedule", () => {
    const bad = (o: object) => () =>
      decodeProposal(
        JSON.stringify({ m: "digest", d: [], t: "09:00", r: "lastmonth", a: [], g: [], s: [], ...o }),
      );
    expect(bad({ f: "monthly" })).toThrow(/not valid/);
    expect(bad({ f: "weekly", o: "1" })).toThrow(/not valid/);
    expect(bad({ f: "monthly", o: "fifth-mon" })).toThrow(/not valid/);
    expect(bad({ f: "quarterly", o: "last-workday" })).not.toThrow();
  });
});
