import { type Clock, offsetClock, offsetTo, systemClock } from "../../src/clock.ts";

/**
 * The clock of the tests that depend on the calendar (vitest.config.ts's CALENDAR_TESTS). `npm test`
 * runs them on the system's clock, today; .ci/run runs them again with INSIGHTS_TEST_NOW set to one
 * fixed instant per `calendar …` project (every weekday, a month end, a year end, DST nights), so a
 * planted "yesterday" or a partial day is checked on a Sunday and on New Year's Eve whatever day CI
 * runs. The clock starts at that instant when asked for and runs on at the real rate: timers,
 * leases and Redis expiries keep working, only the calendar moves.
 */

/** The fixed instant of this run (ms), or undefined on the system's clock. */
export function testInstant(): number | undefined {
  const raw = process.env.INSIGHTS_TEST_NOW ?? "";
  if (raw === "") return undefined;
  const at = Date.parse(raw);
  if (Number.isNaN(at) || raw.includes(",") || !/T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw))
    throw new Error(
      `INSIGHTS_TEST_NOW must be one ISO instant with its zone (e.g. 2027-11-25T12:00:00Z), got "${raw}"`,
    );
  return at;
}

/** A clock that reads the run's fixed instant now (the system's clock without one). */
export function testClock(): Clock {
  const at = testInstant();
  return at === undefined ? systemClock : offsetClock(offsetTo(at));
}

/** The environment that gives a product process started now the same calendar (CLOCK_AT), or none. */
export function clockEnv(clock: Clock): Record<string, string> {
  return clock === systemClock ? {} : { CLOCK_AT: clock().toISOString() };
}
