import { describe, expect, it } from "vitest";
import { todayIn } from "../../src/insights/dayjs.ts";

/**
 * todayIn keeps the last day it worked out per zone for the rest of that UTC minute. These check it
 * against Intl asked afresh every time, minute by minute (each minute's first and last millisecond
 * and its middle, zones interleaved) across local midnights and DST changes, in zones whose offsets
 * are not whole hours, and before 1973, when some offsets had seconds in them.
 */

const ZONES = [
  "UTC",
  "Europe/Berlin",
  "America/Santiago", // DST ends at 24:00: the date steps back an hour after midnight
  "Asia/Kathmandu", // +05:45
  "Pacific/Chatham", // +12:45 / +13:45
  "Australia/Lord_Howe", // half-hour DST
  "America/St_Johns", // -03:30
  "Pacific/Kiritimati", // +14
];

const reference = new Map<string, Intl.DateTimeFormat>();
function expected(t: number, tz: string): string {
  let f = reference.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" });
    reference.set(tz, f);
  }
  return f.format(new Date(t));
}

/** Every minute of `hours` from `start`, at three instants each, all zones in turn. */
function sweep(start: string, hours: number, zones: readonly string[]): number {
  let checked = 0;
  const from = Date.parse(start);
  for (let m = 0; m < hours * 60; m++) {
    for (const offset of [0, 30_000, 59_999]) {
      const t = from + m * 60_000 + offset;
      for (const tz of zones) {
        const got = todayIn(new Date(t), tz);
        if (got !== expected(t, tz)) throw new Error(`${tz} at ${new Date(t).toISOString()}: ${got}`);
        checked++;
      }
    }
  }
  return checked;
}

describe("todayIn", () => {
  it("gives Intl's day at every minute's edges across local midnights and DST changes", () => {
    // Santiago's and Lord Howe's DST end (5 April 2026), Berlin's start (29 March), a plain day.
    expect(sweep("2026-04-04T00:00:00Z", 48, ZONES)).toBe(48 * 60 * 3 * ZONES.length);
    expect(sweep("2026-03-28T20:00:00Z", 8, ZONES)).toBe(8 * 60 * 3 * ZONES.length);
    expect(sweep("2026-11-25T18:00:00Z", 12, ZONES)).toBe(12 * 60 * 3 * ZONES.length);
  });

  it("is right before 1973 too, where a zone's midnight can fall inside a UTC minute", () => {
    // Monrovia kept -0:44:30 until 1972: its midnight is at hh:44:30 UTC.
    const zones = ["Africa/Monrovia", "UTC"];
    expect(sweep("1960-06-01T00:00:00Z", 26, zones)).toBe(26 * 60 * 3 * zones.length);
    const justBefore = Date.parse("1960-06-02T00:44:29.999Z");
    expect(todayIn(new Date(justBefore), "Africa/Monrovia")).toBe(expected(justBefore, "Africa/Monrovia"));
    expect(todayIn(new Date(justBefore + 1), "Africa/Monrovia")).toBe(
      expected(justBefore + 1, "Africa/Monrovia"),
    );
    expect(expected(justBefore, "Africa/Monrovia")).not.toBe(expected(justBefore + 1, "Africa/Monrovia"));
  });

  it("a time going backwards (a test's clock) gets its own day, not the last one asked", () => {
    const late = Date.parse("2026-11-25T23:30:00Z");
    const early = Date.parse("2026-11-24T23:30:00Z");
    expect(todayIn(new Date(late), "Asia/Kathmandu")).toBe("2026-11-26");
    expect(todayIn(new Date(early), "Asia/Kathmandu")).toBe("2026-11-25");
    expect(todayIn(new Date(late), "Asia/Kathmandu")).toBe("2026-11-26");
  });

  it("still refuses an unknown zone and an invalid date, also after a zone was remembered", () => {
    todayIn(new Date(), "UTC");
    expect(() => todayIn(new Date(), "Mars/Olympus")).toThrow();
    expect(() => todayIn(new Date(Number.NaN), "UTC")).toThrow(TypeError);
  });
});
