/**
 * The one source of "now" for everything that depends on the calendar: which day is yesterday, the
 * period a schedule fires for, the partial day of a digest, an alert's episode. Composition roots
 * build one clock and hand it down; nothing calendar-dependent reads `Date` on its own, so a test or
 * a demo can run the whole product on any chosen day (a Sunday, a New Year's Eve, a DST night).
 *
 * Durations (timeouts, leases, cache lifetimes) are not the calendar and keep the system's clock.
 */

/** Reads the current instant. */
export type Clock = () => Date;

/** The machine's clock: what every deployment runs on. */
export const systemClock: Clock = () => new Date();

/**
 * A clock `offsetMs` ahead of the system's (behind when negative) that runs at its rate. Processes
 * and threads given the same offset agree on the instant, as they would on the system's clock.
 *
 * @example offsetClock(0) === systemClock
 */
export function offsetClock(offsetMs: number, real: () => number = Date.now): Clock {
  if (offsetMs === 0 && real === Date.now) return systemClock;
  return () => new Date(real() + offsetMs);
}

/**
 * The offset that makes a clock read `at` now: what CLOCK_AT turns into (an ISO instant with its
 * zone), so the product starts on a chosen day and runs on from there.
 *
 * @example offsetClock(offsetTo(Date.parse("2026-12-06T12:00:00Z")))() // ≈ 2026-12-06T12:00:00Z
 */
export function offsetTo(atMs: number, real: () => number = Date.now): number {
  return atMs - real();
}

/** The clock of a config's `clockOffsetMs`: the system's unless CLOCK_AT moved it. */
export function clockOf(config: { clockOffsetMs?: number }): Clock {
  return offsetClock(config.clockOffsetMs ?? 0);
}

/** A clock's today as `YYYY-MM-DD` in UTC (the analytics service's calendar). */
export function utcDayOf(clock: Clock): string {
  return clock().toISOString().slice(0, 10);
}
