import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/insights/days.ts";
import { parseRange } from "../../src/insights/ranges.ts";
import { nextRuns } from "../../src/subscriptions/schedule.ts";
import type { Schedule } from "../../src/subscriptions/types.ts";

/**
 * What a period means at the moment a schedule fires. A scheduled digest's range is resolved at its
 * run's fire time in the subscription's zone (digest-post.ts: `now: asOf`, the period's instant), the
 * way parseRange resolves one typed then; these tests take the runs from nextRuns (what BullMQ fires)
 * and resolve the range at each, across month ends, a leap February and the DST nights of Berlin
 * (2027-03-28, 2027-10-31) and New York (2027-03-14, 2027-11-07). Fixed instants only.
 */

interface Case {
  what: string;
  schedule: Schedule;
  time: string;
  tz: string;
  range: string;
  from: string;
  /** Each run (ISO, UTC) and the days it covers ("from..to"). */
  runs: [string, string][];
}

const monthly1st: Schedule = { kind: "monthly", on: { kind: "day", day: 1 } };
const lastWorkday: Schedule = { kind: "monthly", on: { kind: "workday", which: "last" } };

const CASES: Case[] = [
  {
    what: "monthly on the 1st with lastmonth: the previous calendar month, February 29 days in 2028",
    schedule: monthly1st,
    time: "09:00",
    tz: "Europe/Berlin",
    range: "lastmonth",
    from: "2028-01-15T00:00:00Z",
    runs: [
      ["2028-02-01T08:00:00.000Z", "2028-01-01..2028-01-31"],
      ["2028-03-01T08:00:00.000Z", "2028-02-01..2028-02-29"],
      ["2028-04-01T07:00:00.000Z", "2028-03-01..2028-03-31"],
    ],
  },
  {
    what: "monthly on the 1st at 00:30 Berlin: 23:30Z on the last day of the month before, yet the local date decides",
    schedule: monthly1st,
    time: "00:30",
    tz: "Europe/Berlin",
    range: "lastmonth",
    from: "2027-02-15T00:00:00Z",
    runs: [
      ["2027-02-28T23:30:00.000Z", "2027-02-01..2027-02-28"],
      ["2027-03-31T22:30:00.000Z", "2027-03-01..2027-03-31"],
    ],
  },
  {
    what: "the last working day with thismonth: the 1st to that day, across Berlin's spring change",
    schedule: lastWorkday,
    time: "17:00",
    tz: "Europe/Berlin",
    range: "thismonth",
    from: "2027-01-01T00:00:00Z",
    runs: [
      ["2027-01-29T16:00:00.000Z", "2027-01-01..2027-01-29"],
      ["2027-02-26T16:00:00.000Z", "2027-02-01..2027-02-26"],
      ["2027-03-31T15:00:00.000Z", "2027-03-01..2027-03-31"],
    ],
  },
  {
    what: "quarterly on the 1st with lastquarter: the previous calendar quarter, across a year end",
    schedule: { kind: "quarterly", on: { kind: "day", day: 1 } },
    time: "09:00",
    tz: "Europe/Berlin",
    range: "lastquarter",
    from: "2027-09-15T00:00:00Z",
    runs: [
      ["2027-10-01T07:00:00.000Z", "2027-07-01..2027-09-30"],
      ["2028-01-01T08:00:00.000Z", "2027-10-01..2027-12-31"],
      ["2028-04-01T07:00:00.000Z", "2028-01-01..2028-03-31"],
    ],
  },
  {
    what: "daily at 02:30 Berlin with yesterday over the spring-forward night: 03:30 CEST, still the 28th",
    schedule: { kind: "daily" },
    time: "02:30",
    tz: "Europe/Berlin",
    range: "yesterday",
    from: "2027-03-27T00:00:00Z",
    runs: [
      ["2027-03-27T01:30:00.000Z", "2027-03-26..2027-03-26"],
      ["2027-03-28T01:30:00.000Z", "2027-03-27..2027-03-27"],
      ["2027-03-29T00:30:00.000Z", "2027-03-28..2027-03-28"],
    ],
  },
  {
    what: "daily at 02:30 Berlin with yesterday over the fall-back night: one run, at the first 02:30",
    schedule: { kind: "daily" },
    time: "02:30",
    tz: "Europe/Berlin",
    range: "yesterday",
    from: "2027-10-30T00:00:00Z",
    runs: [
      ["2027-10-30T00:30:00.000Z", "2027-10-29..2027-10-29"],
      ["2027-10-31T00:30:00.000Z", "2027-10-30..2027-10-30"],
      ["2027-11-01T01:30:00.000Z", "2027-10-31..2027-10-31"],
    ],
  },
  {
    what: "weekdays at 08:00 New York with yesterday over its spring-forward Sunday: Monday covers Sunday",
    schedule: { kind: "weekdays" },
    time: "08:00",
    tz: "America/New_York",
    range: "yesterday",
    from: "2027-03-12T00:00:00Z",
    runs: [
      ["2027-03-12T13:00:00.000Z", "2027-03-11..2027-03-11"],
      ["2027-03-15T12:00:00.000Z", "2027-03-14..2027-03-14"],
    ],
  },
  {
    what: "daily at 01:30 New York with yesterday over the fall-back night (01:30 twice): once, EDT",
    schedule: { kind: "daily" },
    time: "01:30",
    tz: "America/New_York",
    range: "yesterday",
    from: "2027-11-06T00:00:00Z",
    runs: [
      ["2027-11-06T05:30:00.000Z", "2027-11-05..2027-11-05"],
      ["2027-11-07T05:30:00.000Z", "2027-11-06..2027-11-06"],
      ["2027-11-08T06:30:00.000Z", "2027-11-07..2027-11-07"],
    ],
  },
  {
    what: "monthly on the 29th with thismonth: the leap day run covers all of February 2028",
    schedule: { kind: "monthly", on: { kind: "day", day: 29 } },
    time: "09:00",
    tz: "Europe/Berlin",
    range: "thismonth",
    from: "2028-02-15T00:00:00Z",
    runs: [
      ["2028-02-29T08:00:00.000Z", "2028-02-01..2028-02-29"],
      ["2028-03-29T07:00:00.000Z", "2028-03-01..2028-03-29"],
    ],
  },
  {
    what: "monthly on the last day with ytd: 366 days on a leap year's last day, one day on New Year's",
    schedule: { kind: "monthly", on: { kind: "day", day: 31 } },
    time: "23:00",
    tz: "Europe/Berlin",
    range: "ytd",
    from: "2028-12-15T00:00:00Z",
    runs: [
      ["2028-12-31T22:00:00.000Z", "2028-01-01..2028-12-31"],
      ["2029-01-31T22:00:00.000Z", "2029-01-01..2029-01-31"],
    ],
  },
  {
    what: "monthly on the first Monday with lastweek: the Monday-to-Sunday before, across New York's spring change",
    schedule: { kind: "monthly", on: { kind: "weekday", nth: 1, weekday: "mon" } },
    time: "09:00",
    tz: "America/New_York",
    range: "lastweek",
    from: "2027-02-15T00:00:00Z",
    runs: [
      ["2027-03-01T14:00:00.000Z", "2027-02-22..2027-02-28"],
      ["2027-04-05T13:00:00.000Z", "2027-03-29..2027-04-04"],
    ],
  },
];

describe("the period of each run, resolved at its fire time in its zone (hand-derived)", () => {
  it.each(CASES.map((c) => [c.what, c] as const))("%s", (_what, c) => {
    const runs = nextRuns(c.schedule, c.time, c.tz, new Date(c.from), c.runs.length);
    const got = runs.map((r): [string, string] => {
      const range = parseRange(c.range, { now: r, tz: c.tz });
      return [r.toISOString(), `${range.from}..${range.to}`];
    });
    expect(got).toEqual(c.runs);
  });

  it("the zone decides: at 23:30Z on Feb 28, 2027 lastmonth is February in Berlin, January in UTC", () => {
    const run = new Date("2027-02-28T23:30:00Z");
    expect(parseRange("lastmonth", { now: run, tz: "Europe/Berlin" })).toMatchObject({
      from: "2027-02-01",
      to: "2027-02-28",
    });
    expect(parseRange("lastmonth", { now: run, tz: "UTC" })).toMatchObject({
      from: "2027-01-01",
      to: "2027-01-31",
    });
  });
});

describe("runs' periods tile the calendar: no day twice, none left out (property, 2026–2030, DST nights included)", () => {
  const zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Pacific/Auckland", "UTC"];
  const instant = fc
    .integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) })
    .map((ms) => new Date(ms));
  const tiles: [string, Schedule, string][] = [
    ["daily with yesterday", { kind: "daily" }, "yesterday"],
    ["monthly on the 1st with lastmonth", monthly1st, "lastmonth"],
    [
      "quarterly on the 1st with lastquarter",
      { kind: "quarterly", on: { kind: "day", day: 1 } },
      "lastquarter",
    ],
    ["weekly on Monday with lastweek", { kind: "weekly", days: ["mon"] }, "lastweek"],
  ];

  it.each(tiles)("%s", (_what, schedule, range) => {
    fc.assert(
      fc.property(
        instant,
        fc.constantFrom(...zones),
        fc.constantFrom("00:30", "02:30", "09:00", "23:30"),
        (from, tz, time) => {
          const periods = nextRuns(schedule, time, tz, from, 4).map((r) => parseRange(range, { now: r, tz }));
          for (let i = 1; i < periods.length; i++)
            expect(addDays((periods[i - 1] as { to: string }).to, 1)).toBe(
              (periods[i] as { from: string }).from,
            );
        },
      ),
      { numRuns: 60 },
    );
  });
});
