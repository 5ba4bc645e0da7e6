import { describe, expect, it } from "vitest";
import { clockOf, offsetClock, offsetTo, systemClock, utcDayOf } from "../../src/clock.ts";
import { loadConfig } from "../../src/config.ts";

describe("the clock", () => {
  it("an offset clock runs at the real rate from where it was set", () => {
    let real = 1_000_000;
    const at = Date.parse("2026-12-06T23:59:59Z");
    const clock = offsetClock(
      offsetTo(at, () => real),
      () => real,
    );
    expect(clock().toISOString()).toBe("2026-12-06T23:59:59.000Z");
    real += 2_000;
    expect(clock().toISOString()).toBe("2026-12-07T00:00:01.000Z");
    expect(utcDayOf(clock)).toBe("2026-12-07");
  });

  it("no offset is the system's clock itself", () => {
    expect(offsetClock(0)).toBe(systemClock);
    expect(clockOf({ clockOffsetMs: 0 })).toBe(systemClock);
    expect(clockOf({})).toBe(systemClock);
  });

  it("CLOCK_AT moves the config's clock to that instant; a bad one is refused with its name", () => {
    const config = loadConfig("preview", { CLOCK_AT: "2027-03-28T01:30:00Z" });
    const read = clockOf(config)().getTime();
    expect(Math.abs(read - Date.parse("2027-03-28T01:30:00Z"))).toBeLessThan(60_000);
    expect(loadConfig("preview", {}).clockOffsetMs).toBe(0);
    for (const bad of ["2027-03-28", "tomorrow", "2027-03-28T01:30:00", "2027-13-40T01:30:00Z"])
      expect(() => loadConfig("preview", { CLOCK_AT: bad }), bad).toThrow(/CLOCK_AT must be an ISO instant/);
  });
});
