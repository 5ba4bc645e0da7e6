import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fireTimeOfJob, periodOf, periodTime, testPeriod } from "../../src/subscriptions/period.ts";
import {
  checkCronExpression,
  cronFor,
  nextRuns,
  previousRun,
  scheduleText,
  shortestGapMs,
} from "../../src/subscriptions/schedule.ts";
import { type Schedule, WEEKDAYS, type Weekday } from "../../src/subscriptions/types.ts";

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const daily: Schedule = { kind: "daily" };

/** Local wall-clock parts of an instant in a zone, for the property test. */
function local(d: Date, tz: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      weekday: "short",
      hour: "2-digit",
      minute: "2-digit",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return {
    day: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    weekday: String(parts.weekday).toLowerCase(),
  };
}

describe("cron patterns", () => {
  it("turns daily and weekly schedules into 5-field patterns with cron weekday numbers", () => {
    expect(cronFor(daily, "09:05", "UTC")).toEqual({ pattern: "5 9 * * *", tz: "UTC" });
    expect(cronFor({ kind: "weekly", days: ["thu", "mon"] }, "09:00", "Europe/Berlin")).toEqual({
      pattern: "0 9 * * 1,4",
      tz: "Europe/Berlin",
    });
    expect(cronFor({ kind: "weekly", days: ["sun", "sat"] }, "23:59", "UTC").pattern).toBe("59 23 * * 6,0");
    expect(cronFor({ kind: "cron", expression: "0 9 * * 1-5" }, "00:00", "UTC").pattern).toBe("0 9 * * 1-5");
  });

  it("refuses a weekly schedule without days and a malformed time", () => {
    expect(() => cronFor({ kind: "weekly", days: [] }, "09:00", "UTC")).toThrow(/at least one weekday/);
    expect(() => cronFor(daily, "24:00", "UTC")).toThrow(/HH:MM/);
    expect(() => cronFor(daily, "9:00", "UTC")).toThrow(/HH:MM/);
  });

  it("checks cron expressions: 5 fields, seconds only when allowed, garbage refused", () => {
    expect(checkCronExpression("  0  9 * *   1-5 ")).toBe("0 9 * * 1-5");
    expect(() => checkCronExpression("* * * * * *")).toThrow(/5 fields/);
    expect(checkCronExpression("* * * * * *", { allowSeconds: true })).toBe("* * * * * *");
    expect(() => checkCronExpression("61 * * * *")).toThrow(/not a valid cron/);
    expect(() => checkCronExpression("every monday")).toThrow(/5 fields/);
  });
});

describe("next runs across DST changes (hand-derived UTC instants)", () => {
  // [what, schedule, time, zone, from, the runs expected (as many as asked for), a further check]
  const cases: [string, Schedule, string, string, string, string[], ((runs: Date[]) => void)?][] = [
    [
      "Europe/Berlin weekly Mon+Thu 09:00: 08:00Z in winter, 07:00Z from the spring change (2026-03-29)",
      { kind: "weekly", days: ["mon", "thu"] },
      "09:00",
      "Europe/Berlin",
      "2026-03-20T12:00:00Z",
      [
        "2026-03-23T08:00:00.000Z",
        "2026-03-26T08:00:00.000Z",
        "2026-03-30T07:00:00.000Z",
        "2026-04-02T07:00:00.000Z",
        "2026-04-06T07:00:00.000Z",
      ],
    ],
    [
      "Europe/Berlin daily 09:00 over the autumn change (2026-10-25): 07:00Z, then 08:00Z from that day",
      daily,
      "09:00",
      "Europe/Berlin",
      "2026-10-23T12:00:00Z",
      ["2026-10-24T07:00:00.000Z", "2026-10-25T08:00:00.000Z", "2026-10-26T08:00:00.000Z"],
    ],
    [
      "Europe/Berlin daily 02:30 on the spring-forward day (02:00→03:00) runs once, at 03:30 local (01:30Z)",
      daily,
      "02:30",
      "Europe/Berlin",
      "2026-03-27T12:00:00Z",
      ["2026-03-28T01:30:00.000Z", "2026-03-29T01:30:00.000Z", "2026-03-30T00:30:00.000Z"],
      (runs) =>
        expect(local(runs[1] as Date, "Europe/Berlin")).toMatchObject({ day: "2026-03-29", time: "03:30" }),
    ],
    [
      "Europe/Berlin daily 02:30 on the fall-back day (02:00–03:00 twice) runs once, at the first 02:30 (00:30Z)",
      daily,
      "02:30",
      "Europe/Berlin",
      "2026-10-24T12:00:00Z",
      ["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"],
    ],
    [
      "America/New_York daily 02:30 on the spring-forward day (2026-03-08) runs at 03:30 EDT (07:30Z)",
      daily,
      "02:30",
      "America/New_York",
      "2026-03-07T12:00:00Z",
      ["2026-03-08T07:30:00.000Z", "2026-03-09T06:30:00.000Z", "2026-03-10T06:30:00.000Z"],
    ],
    [
      "America/New_York daily 01:30 on the fall-back day (2026-11-01, 01:00–02:00 twice) runs once, at 01:30 EDT (05:30Z)",
      daily,
      "01:30",
      "America/New_York",
      "2026-10-30T12:00:00Z",
      [
        "2026-10-31T05:30:00.000Z",
        "2026-11-01T05:30:00.000Z",
        "2026-11-02T06:30:00.000Z",
        "2026-11-03T06:30:00.000Z",
      ],
      (runs) => expect(runs.filter((r) => local(r, "America/New_York").day === "2026-11-01")).toHaveLength(1),
    ],
    [
      "America/New_York weekly Fri 09:00: 13:00Z before the autumn change, 14:00Z after",
      { kind: "weekly", days: ["fri"] },
      "09:00",
      "America/New_York",
      "2026-10-29T00:00:00Z",
      ["2026-10-30T13:00:00.000Z", "2026-11-06T14:00:00.000Z"],
    ],
  ];

  it.each(cases)("%s", (_what, schedule, time, tz, from, expected, check) => {
    const runs = nextRuns(schedule, time, tz, new Date(from), expected.length);
    expect(iso(runs)).toEqual(expected);
    check?.(runs);
  });

  it("cron schedules keep their own time, in the subscription's zone", () => {
    const runs = nextRuns(
      { kind: "cron", expression: "0 9 * * 1-5" },
      "00:00",
      "America/New_York",
      new Date("2026-03-06T00:00:00Z"),
      2,
    );
    expect(iso(runs)).toEqual(["2026-03-06T14:00:00.000Z", "2026-03-09T13:00:00.000Z"]);
  });

  it("property: every run is at the chosen local time on a chosen weekday, strictly ascending (outside DST gaps)", () => {
    const zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "UTC"];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.subarray([...WEEKDAYS], { minLength: 1 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.date({
          min: new Date("2025-01-01T00:00:00Z"),
          max: new Date("2028-12-31T00:00:00Z"),
          noInvalidDate: true,
        }),
        (tz, days, hour, minute, from) => {
          const time = `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
          const runs = nextRuns({ kind: "weekly", days: days as Weekday[] }, time, tz, from, 6);
          let prev = from.getTime();
          for (const r of runs) {
            expect(r.getTime()).toBeGreaterThan(prev);
            prev = r.getTime();
            const l = local(r, tz);
            // Hours 02 and 03 can shift by the DST gap in these zones; every other time is exact.
            if (hour !== 2 && hour !== 3) expect(l.time).toBe(time);
            expect(days).toContain(l.weekday);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("previous run, gaps and words", () => {
  it("previousRun counts a run exactly at `at` and otherwise returns the latest before it", () => {
    const monday = new Date("2026-03-30T07:00:00Z");
    const weekly: Schedule = { kind: "weekly", days: ["mon"] };
    expect(previousRun(weekly, "09:00", "Europe/Berlin", monday)?.toISOString()).toBe(monday.toISOString());
    expect(
      previousRun(weekly, "09:00", "Europe/Berlin", new Date("2026-03-30T06:59:59Z"))?.toISOString(),
    ).toBe("2026-03-23T08:00:00.000Z");
  });

  it("measures the shortest gap between runs", () => {
    // Daily and weekly are not sampled: they never run twice within a (DST-short) 23-hour day.
    expect(shortestGapMs(daily, "09:00", "UTC", new Date("2026-01-01T00:00:00Z"))).toBe(23 * 3_600_000);
    expect(shortestGapMs({ kind: "cron", expression: "*/15 * * * *" }, "00:00", "UTC", new Date(0))).toBe(
      900_000,
    );
    expect(
      shortestGapMs(
        { kind: "cron", expression: "0 9 * * 1,2" },
        "00:00",
        "UTC",
        new Date("2026-01-01T00:00:00Z"),
      ),
    ).toBe(86_400_000);
  });

  it("describes schedules in words, weekdays in calendar order", () => {
    expect(scheduleText({ kind: "weekly", days: ["thu", "mon"] }, "09:00", "Europe/Berlin")).toBe(
      "Weekly on Mon, Thu at 09:00 Europe/Berlin",
    );
    expect(scheduleText(daily, "07:30", "America/New_York")).toBe("Daily at 07:30 America/New_York");
    expect(scheduleText({ kind: "cron", expression: "0 9 * * 1-5" }, "09:00", "UTC")).toBe(
      "Cron 0 9 * * 1-5 UTC",
    );
  });
});

describe("delivery periods", () => {
  it("formats a fire time key-safely and back", () => {
    const p = periodOf(new Date("2026-11-02T08:00:00.000Z"));
    expect(p).toBe("20261102T080000Z");
    expect(p).not.toContain(":");
    expect(periodTime(p)?.toISOString()).toBe("2026-11-02T08:00:00.000Z");
    expect(periodTime("send-abc")).toBeNull();
  });

  it("gives test sends unique periods that never parse as a fire time", () => {
    const now = new Date("2026-11-02T08:00:00Z");
    const a = testPeriod(now);
    const b = testPeriod(now);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^send-[a-z0-9]+-[0-9a-f]{6}$/);
    expect(periodTime(a)).toBeNull();
  });

  it("reads a scheduler job's fire time from prevMillis, else from its id", () => {
    expect(fireTimeOfJob({ id: "repeat:x.y.z:1", opts: { prevMillis: 1_780_000_000_000 } })).toBe(
      1_780_000_000_000,
    );
    expect(fireTimeOfJob({ id: "repeat:-.T1.abcd1234:1780000000000", opts: {} })).toBe(1_780_000_000_000);
    expect(fireTimeOfJob({ id: "send-x", opts: {} })).toBeNull();
  });
});
