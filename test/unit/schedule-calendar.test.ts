import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { todayIn } from "../../src/insights/dayjs.ts";
import { addDays } from "../../src/insights/days.ts";
import {
  countsFromEnd,
  gateOpen,
  isRunDay,
  monthDayText,
  monthDayWords,
  parseMonthDayText,
  readMonthDay,
} from "../../src/subscriptions/month-day.ts";
import {
  cronFor,
  firesAt,
  gatedRunBetween,
  nextRuns,
  previousRun,
  scheduleText,
} from "../../src/subscriptions/schedule.ts";
import { slotFor, slotOf } from "../../src/subscriptions/slots.ts";
import { type MonthDay, type Nth, type Schedule, WEEKDAYS } from "../../src/subscriptions/types.ts";

/**
 * Monthly, quarterly and working-day schedules: the month days, their cron patterns and gates, and the
 * runs they list across month ends, a leap day and DST nights (Europe/Berlin 2027-03-28 and
 * 2027-10-31, America/New_York 2027-03-14 and 2027-11-07). Every instant is fixed; expected runs
 * were worked out by hand from the calendar and the zones' offsets.
 */

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const at = (s: string) => new Date(s);
const monthly = (on: MonthDay): Schedule => ({ kind: "monthly", on });
const quarterly = (on: MonthDay): Schedule => ({ kind: "quarterly", on });
const day = (n: number): MonthDay => ({ kind: "day", day: n });
const nth = (n: Nth, weekday: (typeof WEEKDAYS)[number]): MonthDay => ({ kind: "weekday", nth: n, weekday });
const lastWorkday: MonthDay = { kind: "workday", which: "last" };
const firstWorkday: MonthDay = { kind: "workday", which: "first" };

/** Every month day there is: 31 days, 5 × 7 weekdays, 2 working days. */
const ALL_DAYS: MonthDay[] = [
  ...Array.from({ length: 31 }, (_, i) => day(i + 1)),
  ...([1, 2, 3, 4, "last"] as Nth[]).flatMap((n) => WEEKDAYS.map((w) => nth(n, w))),
  firstWorkday,
  lastWorkday,
];

describe("month days: text, words and what people type", () => {
  it("round-trips every month day through its canonical text, and refuses what is not one", () => {
    expect(ALL_DAYS).toHaveLength(68);
    for (const on of ALL_DAYS) expect(parseMonthDayText(monthDayText(on))).toEqual(on);
    expect(ALL_DAYS.map(monthDayText).slice(30, 33)).toEqual(["31", "first-mon", "first-tue"]);
    for (const bad of ["0", "32", "01", "fifth-mon", "second-workday", "last-", "mon", ""])
      expect(parseMonthDayText(bad)).toBeNull();
  });

  it("reads the day as typed: ordinals, bare numbers, nth weekdays, working days, first and last day", () => {
    const read = (text: string) => readMonthDay(text.split(" "), 0);
    expect(read("1st")).toEqual({ on: day(1), len: 1 });
    expect(read("15")).toEqual({ on: day(15), len: 1 });
    expect(read("22nd 09:00")).toEqual({ on: day(22), len: 1 });
    expect(read("first mon")).toEqual({ on: nth(1, "mon"), len: 2 });
    expect(read("2nd tuesday")).toEqual({ on: nth(2, "tue"), len: 2 });
    expect(read("last fridays")).toEqual({ on: nth("last", "fri"), len: 2 });
    expect(read("last workday")).toEqual({ on: lastWorkday, len: 2 });
    expect(read("last working day")).toEqual({ on: lastWorkday, len: 3 });
    expect(read("first business day")).toEqual({ on: firstWorkday, len: 3 });
    expect(read("last day")).toEqual({ on: day(31), len: 2 });
    expect(read("first day")).toEqual({ on: day(1), len: 2 });
    for (const bad of ["2th", "32nd", "second workday", "fifth mon", "first", "monday", "09:00"])
      expect(read(bad)).toBeNull();
  });

  it("says each kind in words, the days past a short month's end with their rule", () => {
    expect(monthDayWords(day(1))).toBe("the 1st");
    expect(monthDayWords(day(23))).toBe("the 23rd");
    expect(monthDayWords(day(11))).toBe("the 11th");
    expect(monthDayWords(day(30))).toBe("the 30th (or the last day of a shorter month)");
    expect(monthDayWords(day(31))).toBe("the last day");
    expect(monthDayWords(nth("last", "fri"))).toBe("the last Friday");
    expect(monthDayWords(lastWorkday)).toBe("the last working day (Mon–Fri)");
    expect(scheduleText(monthly(nth(1, "mon")), "09:00", "Europe/Berlin")).toBe(
      "Monthly on the first Monday at 09:00 Europe/Berlin",
    );
    expect(scheduleText(quarterly(day(1)), "09:00", "UTC")).toBe(
      "Quarterly on the 1st of Jan, Apr, Jul, Oct at 09:00 UTC",
    );
    expect(scheduleText(quarterly(lastWorkday), "17:00", "UTC")).toBe(
      "Quarterly on the last working day (Mon–Fri) of Mar, Jun, Sep, Dec at 17:00 UTC",
    );
    expect(scheduleText({ kind: "weekdays" }, "08:00", "UTC")).toBe("Weekdays (Mon–Fri) at 08:00 UTC");
  });
});

describe("run days", () => {
  it("a day past the month's end runs on its last day: February, a leap February, 30-day months", () => {
    expect(isRunDay(day(31), "2027-02-28")).toBe(true);
    expect(isRunDay(day(31), "2028-02-28")).toBe(false);
    expect(isRunDay(day(31), "2028-02-29")).toBe(true);
    expect(isRunDay(day(30), "2027-04-30")).toBe(true);
    expect(isRunDay(day(30), "2027-05-30")).toBe(true);
    expect(isRunDay(day(30), "2027-05-31")).toBe(false);
    expect(isRunDay(day(29), "2027-02-28")).toBe(true);
    expect(isRunDay(day(29), "2028-02-28")).toBe(false);
    expect(isRunDay(day(29), "2028-02-29")).toBe(true);
    expect(isRunDay(day(28), "2028-02-28")).toBe(true);
  });

  it("the first and last working days step over weekends", () => {
    // Jan 2027 ends on a Sunday, Feb 2027 on a Sunday, Jul 2027 on a Saturday; May 2027 starts on a Saturday.
    expect(isRunDay(lastWorkday, "2027-01-29")).toBe(true);
    expect(isRunDay(lastWorkday, "2027-01-31")).toBe(false);
    expect(isRunDay(lastWorkday, "2027-02-26")).toBe(true);
    expect(isRunDay(lastWorkday, "2027-07-30")).toBe(true);
    expect(isRunDay(lastWorkday, "2027-03-31")).toBe(true);
    expect(isRunDay(firstWorkday, "2027-05-03")).toBe(true);
    expect(isRunDay(firstWorkday, "2027-05-01")).toBe(false);
    expect(isRunDay(firstWorkday, "2027-01-01")).toBe(true);
  });

  it("nth and last weekdays", () => {
    expect(isRunDay(nth(1, "mon"), "2027-03-01")).toBe(true);
    expect(isRunDay(nth(2, "sun"), "2027-03-14")).toBe(true);
    expect(isRunDay(nth(4, "sun"), "2027-03-28")).toBe(true);
    expect(isRunDay(nth("last", "sun"), "2027-03-28")).toBe(true);
    expect(isRunDay(nth("last", "sun"), "2027-03-21")).toBe(false);
    expect(isRunDay(nth("last", "mon"), "2027-05-31")).toBe(true);
    expect(isRunDay(nth(4, "mon"), "2027-05-31")).toBe(false);
  });

  it("every month has exactly one run day of each month day (property, over 2000–2099)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2000, max: 2099 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom(...ALL_DAYS),
        (y, m, on) => {
          const first = `${y}-${String(m).padStart(2, "0")}-01`;
          let count = 0;
          for (let d = first; d.slice(0, 7) === first.slice(0, 7); d = addDays(d, 1))
            if (isRunDay(on, d)) count++;
          return count === 1;
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("cron patterns and gates", () => {
  const cron = (s: Schedule, time = "09:00") => cronFor(s, time, "Europe/Berlin");

  it("says exactly what cron can say, with cron-parser's L and # extensions", () => {
    expect(cron({ kind: "weekdays" }, "08:00")).toEqual({
      pattern: "0 8 * * 1,2,3,4,5",
      tz: "Europe/Berlin",
    });
    expect(cron(monthly(day(1)))).toEqual({ pattern: "0 9 1 * *", tz: "Europe/Berlin" });
    expect(cron(monthly(day(28))).pattern).toBe("0 9 28 * *");
    expect(cron(monthly(day(31))).pattern).toBe("0 9 L * *");
    expect(cron(monthly(nth(1, "mon"))).pattern).toBe("0 9 * * 1#1");
    expect(cron(monthly(nth("last", "sun")), "02:30").pattern).toBe("30 2 * * 0L");
    expect(cron(quarterly(day(1))).pattern).toBe("0 9 1 1,4,7,10 *");
    expect(cron(quarterly(nth(1, "mon"))).pattern).toBe("0 9 * 1,4,7,10 1#1");
    expect(cron(quarterly(day(31))).pattern).toBe("0 9 L 3,6,9,12 *");
    expect(cron(quarterly(nth("last", "fri"))).pattern).toBe("0 9 * 3,6,9,12 5L");
  });

  it("fires a superset with a gate where cron cannot say the day", () => {
    expect(cron(monthly(day(29)))).toEqual({ pattern: "0 9 28-29 * *", tz: "Europe/Berlin", gate: "29" });
    expect(cron(monthly(day(30)))).toEqual({ pattern: "0 9 28-30 * *", tz: "Europe/Berlin", gate: "30" });
    expect(cron(monthly(lastWorkday), "17:00")).toEqual({
      pattern: "0 17 26-31 * *",
      tz: "Europe/Berlin",
      gate: "last-workday",
    });
    expect(cron(monthly(firstWorkday)).pattern).toBe("0 9 1-3 * *");
    expect(cron(quarterly(lastWorkday)).pattern).toBe("0 9 26-31 3,6,9,12 *");
    expect(countsFromEnd(firstWorkday)).toBe(false);
  });

  it("the gate passes only run days, on the local date of the fire", () => {
    expect(gateOpen("last-workday", "2027-01-29")).toBe(true);
    expect(gateOpen("last-workday", "2027-01-28")).toBe(false);
    expect(gateOpen("no-such-gate", "2027-01-29")).toBe(false);
    // 23:30 on Jan 28 in New York is Jan 29 in UTC: the zone's date decides.
    expect(firesAt("last-workday", "America/New_York", at("2027-01-29T04:30:00Z"))).toBe(false);
    expect(firesAt("last-workday", "UTC", at("2027-01-29T04:30:00Z"))).toBe(true);
    expect(firesAt(undefined, "UTC", at("2027-01-28T04:30:00Z"))).toBe(true);
  });

  it("finds the run day a late fire jumped over: the latest after the fire and at or before now", () => {
    const p = "0 17 26-31 * *";
    const tz = "Europe/Berlin";
    const fire = at("2027-01-26T16:00:00Z");
    expect(gatedRunBetween(p, tz, "last-workday", fire, at("2027-01-26T16:00:30Z"))).toBeNull();
    expect(gatedRunBetween(p, tz, "last-workday", fire, at("2027-01-29T16:00:00Z"))).toEqual(
      at("2027-01-29T16:00:00Z"),
    );
    // Down into March: the latest run day, February's, not January's too.
    expect(gatedRunBetween(p, tz, "last-workday", fire, at("2027-03-10T00:00:00Z"))).toEqual(
      at("2027-02-26T16:00:00Z"),
    );
    expect(
      gatedRunBetween(p, tz, "last-workday", at("2027-01-29T16:00:00Z"), at("2027-02-20T00:00:00Z")),
    ).toBeNull();
  });

  it("gives gated slots ids of their own, and leaves ungated slots' ids as they were", () => {
    const plain = slotFor("0 9 28-30 * *", "Europe/Berlin");
    const gated = slotFor("0 9 28-30 * *", "Europe/Berlin", "30");
    expect(gated.id).not.toBe(plain.id);
    expect(gated.id).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(gated.gate).toBe("30");
    expect(plain).not.toHaveProperty("gate");
    // The id a weekly Monday 09:00 Berlin slot had before gates existed.
    expect(slotFor("0 9 * * 1", "Europe/Berlin").id).toBe("RYno53T1dqHk7Cw9");
    const sub = { schedule: monthly(day(29)), time: "09:00", tz: "Europe/Berlin", status: "active" as const };
    expect(slotOf(sub)).toEqual(slotFor("0 9 28-29 * *", "Europe/Berlin", "29"));
    expect(slotOf({ ...sub, schedule: monthly(day(30)) })?.id).not.toBe(slotOf(sub)?.id);
  });
});

describe("next runs across month ends, a leap day and DST nights (hand-derived)", () => {
  // [what, schedule, time, zone, from, expected runs]
  const cases: [string, Schedule, string, string, string, string[]][] = [
    [
      "on the 31st: every month's last day; 09:00 Berlin is 08:00Z in winter, 07:00Z from 2027-03-28",
      monthly(day(31)),
      "09:00",
      "Europe/Berlin",
      "2027-01-15T00:00:00Z",
      [
        "2027-01-31T08:00:00.000Z",
        "2027-02-28T08:00:00.000Z",
        "2027-03-31T07:00:00.000Z",
        "2027-04-30T07:00:00.000Z",
      ],
    ],
    [
      "on the 30th: February's 28th, the 30th elsewhere (the gate drops the 28th and 29th of longer months)",
      monthly(day(30)),
      "09:00",
      "Europe/Berlin",
      "2027-01-15T00:00:00Z",
      [
        "2027-01-30T08:00:00.000Z",
        "2027-02-28T08:00:00.000Z",
        "2027-03-30T07:00:00.000Z",
        "2027-04-30T07:00:00.000Z",
      ],
    ],
    [
      "on the 29th in a leap year: February 29th 2028",
      monthly(day(29)),
      "09:00",
      "Europe/Berlin",
      "2028-01-15T00:00:00Z",
      ["2028-01-29T08:00:00.000Z", "2028-02-29T08:00:00.000Z", "2028-03-29T07:00:00.000Z"],
    ],
    [
      "on the 29th in a common year: February 28th 2027",
      monthly(day(29)),
      "09:00",
      "Europe/Berlin",
      "2027-01-15T00:00:00Z",
      ["2027-01-29T08:00:00.000Z", "2027-02-28T08:00:00.000Z", "2027-03-29T07:00:00.000Z"],
    ],
    [
      "the last working day at 17:00: Fri Jan 29 and Fri Feb 26 (months ending on a Sunday), Wed Mar 31 in summer time",
      monthly(lastWorkday),
      "17:00",
      "Europe/Berlin",
      "2027-01-01T00:00:00Z",
      [
        "2027-01-29T16:00:00.000Z",
        "2027-02-26T16:00:00.000Z",
        "2027-03-31T15:00:00.000Z",
        "2027-04-30T15:00:00.000Z",
      ],
    ],
    [
      "the last working day across the autumn change: Fri Oct 29 (CEST), Tue Nov 30 (CET)",
      monthly(lastWorkday),
      "17:00",
      "Europe/Berlin",
      "2027-10-01T00:00:00Z",
      ["2027-10-29T15:00:00.000Z", "2027-11-30T16:00:00.000Z"],
    ],
    [
      "the first working day: Mon May 3 (May 1 is a Saturday), Tue Jun 1",
      monthly(firstWorkday),
      "09:00",
      "Europe/Berlin",
      "2027-04-15T00:00:00Z",
      ["2027-05-03T07:00:00.000Z", "2027-06-01T07:00:00.000Z"],
    ],
    [
      "the last Sunday at 02:30 on Berlin's spring-forward night: 02:30 does not exist, runs at 03:30 CEST",
      monthly(nth("last", "sun")),
      "02:30",
      "Europe/Berlin",
      "2027-03-01T00:00:00Z",
      ["2027-03-28T01:30:00.000Z", "2027-04-25T00:30:00.000Z", "2027-05-30T00:30:00.000Z"],
    ],
    [
      "the last Sunday at 02:30 on Berlin's fall-back night: once, at the first 02:30 (CEST)",
      monthly(nth("last", "sun")),
      "02:30",
      "Europe/Berlin",
      "2027-10-01T00:00:00Z",
      ["2027-10-31T00:30:00.000Z", "2027-11-28T01:30:00.000Z"],
    ],
    [
      "the second Sunday at 02:30 on New York's spring-forward night (Mar 14): 03:30 EDT",
      monthly(nth(2, "sun")),
      "02:30",
      "America/New_York",
      "2027-03-01T00:00:00Z",
      ["2027-03-14T07:30:00.000Z", "2027-04-11T06:30:00.000Z"],
    ],
    [
      "the first Sunday at 01:30 on New York's fall-back night (Nov 7): once, at the first 01:30 (EDT)",
      monthly(nth(1, "sun")),
      "01:30",
      "America/New_York",
      "2027-10-15T00:00:00Z",
      ["2027-11-07T05:30:00.000Z", "2027-12-05T06:30:00.000Z"],
    ],
    [
      "the first Monday in New York: 09:00 EST, then EDT",
      monthly(nth(1, "mon")),
      "09:00",
      "America/New_York",
      "2027-02-15T00:00:00Z",
      ["2027-03-01T14:00:00.000Z", "2027-04-05T13:00:00.000Z"],
    ],
    [
      "quarterly, the first day of each quarter",
      quarterly(day(1)),
      "09:00",
      "Europe/Berlin",
      "2027-03-01T00:00:00Z",
      [
        "2027-04-01T07:00:00.000Z",
        "2027-07-01T07:00:00.000Z",
        "2027-10-01T07:00:00.000Z",
        "2028-01-01T08:00:00.000Z",
      ],
    ],
    [
      "quarterly, the first Monday of each quarter",
      quarterly(nth(1, "mon")),
      "09:00",
      "Europe/Berlin",
      "2027-03-01T00:00:00Z",
      [
        "2027-04-05T07:00:00.000Z",
        "2027-07-05T07:00:00.000Z",
        "2027-10-04T07:00:00.000Z",
        "2028-01-03T08:00:00.000Z",
      ],
    ],
    [
      "quarterly, the last working day of each quarter (in its last month)",
      quarterly(lastWorkday),
      "17:00",
      "Europe/Berlin",
      "2027-03-01T00:00:00Z",
      [
        "2027-03-31T15:00:00.000Z",
        "2027-06-30T15:00:00.000Z",
        "2027-09-30T15:00:00.000Z",
        "2027-12-31T16:00:00.000Z",
      ],
    ],
    [
      "quarterly on the last day: the quarter's last day",
      quarterly(day(31)),
      "09:00",
      "Europe/Berlin",
      "2027-03-01T00:00:00Z",
      [
        "2027-03-31T07:00:00.000Z",
        "2027-06-30T07:00:00.000Z",
        "2027-09-30T07:00:00.000Z",
        "2027-12-31T08:00:00.000Z",
      ],
    ],
    [
      "weekdays at 08:00 over Berlin's spring-forward weekend: Fri 07:00Z, Mon 06:00Z",
      { kind: "weekdays" },
      "08:00",
      "Europe/Berlin",
      "2027-03-25T12:00:00Z",
      ["2027-03-26T07:00:00.000Z", "2027-03-29T06:00:00.000Z", "2027-03-30T06:00:00.000Z"],
    ],
  ];

  it.each(cases)("%s", (_what, schedule, time, tz, from, expected) => {
    expect(iso(nextRuns(schedule, time, tz, at(from), expected.length))).toEqual(expected);
  });

  it("the previous run of a gated schedule is its last run day, not the gate's latest fire", () => {
    // The last-workday pattern fired on Sun Feb 28 and Sat Feb 27; the run was Fri Feb 26.
    expect(previousRun(monthly(lastWorkday), "17:00", "Europe/Berlin", at("2027-03-05T00:00:00Z"))).toEqual(
      at("2027-02-26T16:00:00Z"),
    );
    expect(previousRun(monthly(day(30)), "09:00", "Europe/Berlin", at("2027-03-29T12:00:00Z"))).toEqual(
      at("2027-02-28T08:00:00Z"),
    );
    // A run exactly at `at` counts.
    expect(previousRun(quarterly(day(1)), "09:00", "UTC", at("2027-04-01T09:00:00Z"))).toEqual(
      at("2027-04-01T09:00:00Z"),
    );
  });
});

describe("every run is a run day at its time, and no run day is skipped (property)", () => {
  const zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "UTC"];
  it("holds for every month day, zone and start in 2026–2030", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_DAYS),
        fc.boolean(),
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.constantFrom("00:15", "09:00", "17:45", "23:30"),
        (on, quarter, tz, fromMs, time) => {
          const schedule = quarter ? quarterly(on) : monthly(on);
          const runs = nextRuns(schedule, time, tz, new Date(fromMs), 4);
          if (runs.length !== 4) return false;
          const days = runs.map((r) => todayIn(r, tz));
          for (const d of days) {
            if (!isRunDay(on, d)) return false;
            const month = Number(d.slice(5, 7));
            const wanted = countsFromEnd(on) ? [3, 6, 9, 12] : [1, 4, 7, 10];
            if (quarter && !wanted.includes(month)) return false;
          }
          // Consecutive runs are one month (monthly) or one quarter (quarterly) apart.
          const months = days.map((d) => Number(d.slice(0, 4)) * 12 + Number(d.slice(5, 7)));
          for (let i = 1; i < months.length; i++)
            if ((months[i] as number) - (months[i - 1] as number) !== (quarter ? 3 : 1)) return false;
          // The local time is the schedule's (these times exist on every day in these zones).
          const local = new Intl.DateTimeFormat("en-GB", {
            timeZone: tz,
            hour: "2-digit",
            minute: "2-digit",
            hourCycle: "h23",
          });
          return runs.every((r) => local.format(r) === time);
        },
      ),
      { numRuns: 150 },
    );
  });
});
