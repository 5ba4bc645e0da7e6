import { describe, expect, it } from "vitest";
import { parseCommand } from "../../commands/grammar.ts";
import { cronFor, nextRuns, scheduleText } from "../../src/subscriptions/schedule.ts";
import type { Schedule } from "../../src/subscriptions/types.ts";
import { runTime } from "../../templates/subscribe-times.ts";

/**
 * Every new schedule form, one example each in Europe/Berlin, and the first three runs the product
 * computes from 2027-03-01T00:00Z (Berlin moves to summer time on 2027-03-28: 09:00 is 08:00Z before,
 * 07:00Z after). Each example is read by the slash command's own parser, so the table is what people
 * type; the expected runs were worked out by hand from the 2027 calendar. The table is printed (run
 * this file alone to see it) for release notes.
 */

const FROM = new Date("2027-03-01T00:00:00Z");
const TZ = "Europe/Berlin";

const TABLE: [command: string, runs: [string, string, string]][] = [
  ["weekdays 08:00", ["2027-03-01T07:00:00Z", "2027-03-02T07:00:00Z", "2027-03-03T07:00:00Z"]],
  ["monthly 1st 09:00", ["2027-03-01T08:00:00Z", "2027-04-01T07:00:00Z", "2027-05-01T07:00:00Z"]],
  ["monthly 15 09:00", ["2027-03-15T08:00:00Z", "2027-04-15T07:00:00Z", "2027-05-15T07:00:00Z"]],
  ["monthly 29th 09:00", ["2027-03-29T07:00:00Z", "2027-04-29T07:00:00Z", "2027-05-29T07:00:00Z"]],
  ["monthly 30th 09:00", ["2027-03-30T07:00:00Z", "2027-04-30T07:00:00Z", "2027-05-30T07:00:00Z"]],
  ["monthly 31st 09:00", ["2027-03-31T07:00:00Z", "2027-04-30T07:00:00Z", "2027-05-31T07:00:00Z"]],
  ["monthly first mon 09:00", ["2027-03-01T08:00:00Z", "2027-04-05T07:00:00Z", "2027-05-03T07:00:00Z"]],
  ["monthly second tue 09:00", ["2027-03-09T08:00:00Z", "2027-04-13T07:00:00Z", "2027-05-11T07:00:00Z"]],
  ["monthly last sun 02:30", ["2027-03-28T01:30:00Z", "2027-04-25T00:30:00Z", "2027-05-30T00:30:00Z"]],
  ["monthly last fri 17:00", ["2027-03-26T16:00:00Z", "2027-04-30T15:00:00Z", "2027-05-28T15:00:00Z"]],
  ["monthly first workday 09:00", ["2027-03-01T08:00:00Z", "2027-04-01T07:00:00Z", "2027-05-03T07:00:00Z"]],
  ["monthly last workday 17:00", ["2027-03-31T15:00:00Z", "2027-04-30T15:00:00Z", "2027-05-31T15:00:00Z"]],
  ["quarterly 09:00", ["2027-04-01T07:00:00Z", "2027-07-01T07:00:00Z", "2027-10-01T07:00:00Z"]],
  ["quarterly first mon 09:00", ["2027-04-05T07:00:00Z", "2027-07-05T07:00:00Z", "2027-10-04T07:00:00Z"]],
  ["quarterly first workday 09:00", ["2027-04-01T07:00:00Z", "2027-07-01T07:00:00Z", "2027-10-01T07:00:00Z"]],
  ["quarterly last day 09:00", ["2027-03-31T07:00:00Z", "2027-06-30T07:00:00Z", "2027-09-30T07:00:00Z"]],
  ["quarterly last fri 17:00", ["2027-03-26T16:00:00Z", "2027-06-25T15:00:00Z", "2027-09-24T15:00:00Z"]],
  ["quarterly last workday 17:00", ["2027-03-31T15:00:00Z", "2027-06-30T15:00:00Z", "2027-09-30T15:00:00Z"]],
];

/** The schedule and time the slash command reads from `subscribe <command> Europe/Berlin`. */
function read(command: string): { schedule: Schedule; time: string } {
  const c = parseCommand(`subscribe ${command} ${TZ}`);
  if (c.kind !== "subscribe") throw new Error(`not a subscription: ${command}`);
  if (c.frequency === "monthly" || c.frequency === "quarterly")
    return { schedule: { kind: c.frequency, on: c.on ?? { kind: "day", day: 1 } }, time: c.time };
  if (c.frequency === "weekly") return { schedule: { kind: "weekly", days: c.days }, time: c.time };
  return { schedule: { kind: c.frequency }, time: c.time };
}

describe("the first three runs of every new schedule form, Europe/Berlin, from 2027-03-01T00:00Z", () => {
  it.each(TABLE)("subscribe %s", (command, expected) => {
    const { schedule, time } = read(command);
    expect(nextRuns(schedule, time, TZ, FROM, 3).map((d) => d.toISOString())).toEqual(
      expected.map((e) => new Date(e).toISOString()),
    );
  });

  it("prints the table", () => {
    const rows = TABLE.map(([command]) => {
      const { schedule, time } = read(command);
      const { pattern, gate } = cronFor(schedule, time, TZ);
      const runs = nextRuns(schedule, time, TZ, FROM, 3).map(
        (d) => `${runTime(d, TZ)} (${d.toISOString().slice(5, 16).replace("T", " ")}Z)`,
      );
      return `| \`${command}\` | ${scheduleText(schedule, time, TZ).replace(` ${TZ}`, "")} | \`${pattern}\`${gate ? ` gate \`${gate}\`` : ""} | ${runs.join(" | ")} |`;
    });
    const head =
      "| subscribe … | in words | cron (BullMQ) | 1st run | 2nd run | 3rd run |\n|---|---|---|---|---|---|";
    console.info(`${head}\n${rows.join("\n")}`);
    expect(rows).toHaveLength(TABLE.length);
  });
});
