import { describe, expect, it } from "vitest";
import { fromHash, toHash } from "../../src/subscriptions/codec.ts";
import { slotOf } from "../../src/subscriptions/slots.ts";
import type { Schedule } from "../../src/subscriptions/types.ts";

/**
 * The stored form of schedules. Monthly, quarterly and working-day schedules add kinds and one field
 * (`on`) and change nothing of the kinds stored before, so records written by earlier versions need no
 * migration: this reads their hashes as they were written and checks each keeps its schedule, its time
 * slot (the slot id names its members' hash and its BullMQ scheduler: a changed id would orphan both)
 * and, rewritten, the same fields.
 */

const ref = { teamId: "T0DEMO001" };

/** Hashes as the version before these schedules wrote them, and the slot ids it gave them. */
const OLD: [string, Record<string, string>, Schedule, string][] = [
  [
    "weekly on Mon and Thu",
    { kind: "weekly", days: "mon,thu", time: "09:00", tz: "Europe/Berlin" },
    { kind: "weekly", days: ["mon", "thu"] },
    "IQPVTzKVNAAvy7gI",
  ],
  ["daily", { kind: "daily", time: "08:30", tz: "America/New_York" }, { kind: "daily" }, "FA0MCcOpBe84uRuS"],
  ["hourly", { kind: "hourly", time: "00:15", tz: "UTC" }, { kind: "hourly" }, "q8CjwlJfXtVPKg5d"],
  [
    "cron on weekdays",
    { kind: "cron", cron: "0 9 * * 1-5", time: "09:00", tz: "Asia/Tokyo" },
    { kind: "cron", expression: "0 9 * * 1-5" },
    "VGAt5JiGShHr3Knh",
  ],
];

describe("records stored before monthly and quarterly schedules", () => {
  it.each(OLD)(
    "%s: same schedule, same slot id, same fields when written back",
    (_what, fields, schedule, slotId) => {
      const hash = {
        channel: "C0GENERAL",
        owner: "U0ADMIN01",
        range: "last7d",
        status: "active",
        created: "2026-11-01T00:00:00.000Z",
        ...fields,
      };
      const sub = fromHash("abcd1234", ref, hash);
      expect(sub?.schedule).toEqual(schedule);
      expect(sub ? slotOf(sub)?.id : undefined).toBe(slotId);
      expect(sub ? slotOf(sub) : null).not.toHaveProperty("gate");
      expect(sub ? toHash(sub) : {}).toMatchObject(hash);
    },
  );

  it("a weekdays schedule shares the slot of a weekly Mon–Fri one: same pattern, no gate", () => {
    const at = { time: "09:00", tz: "Asia/Tokyo", status: "active" as const };
    expect(slotOf({ ...at, schedule: { kind: "weekdays" } })).toEqual(
      slotOf({ ...at, schedule: { kind: "weekly", days: ["mon", "tue", "wed", "thu", "fri"] } }),
    );
  });
});

describe("the new kinds' stored form", () => {
  const sub = (schedule: Schedule) =>
    fromHash("abcd1234", ref, {
      channel: "C0GENERAL",
      ...toHash({ schedule, time: "09:00", tz: "UTC", status: "active" }),
    });

  it("keeps the day in one short `on` field and reads it back", () => {
    const cases: [Schedule, Record<string, string>][] = [
      [{ kind: "weekdays" }, { kind: "weekdays" }],
      [
        { kind: "monthly", on: { kind: "day", day: 31 } },
        { kind: "monthly", on: "31" },
      ],
      [
        { kind: "monthly", on: { kind: "weekday", nth: 1, weekday: "mon" } },
        { kind: "monthly", on: "first-mon" },
      ],
      [
        { kind: "quarterly", on: { kind: "workday", which: "last" } },
        { kind: "quarterly", on: "last-workday" },
      ],
    ];
    for (const [schedule, fields] of cases) {
      expect(toHash({ schedule })).toEqual(fields);
      expect(sub(schedule)?.schedule).toEqual(schedule);
    }
  });

  it("an unreadable day reads as the 1st rather than losing the record", () => {
    const h = { channel: "C0GENERAL", kind: "monthly", on: "fifth-mon", time: "09:00", tz: "UTC" };
    expect(fromHash("abcd1234", ref, h)?.schedule).toEqual({ kind: "monthly", on: { kind: "day", day: 1 } });
  });
});
