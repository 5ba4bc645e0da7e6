import { describe, expect, it } from "vitest";
import { nextRuns } from "../../src/subscriptions/schedule.ts";
import type { Schedule } from "../../src/subscriptions/types.ts";
import { quietTime } from "../fixtures/subscription.ts";

/**
 * The tests' subscriptions are stored at a time that does not come while a test runs, since the
 * workers beside them run the real schedulers (a real fire is a message the test did not stage).
 */
describe("quietTime", () => {
  const schedules: Schedule[] = [{ kind: "hourly" }, { kind: "daily" }];
  // Whole, half- and quarter-hour offsets.
  const zones = [
    "UTC",
    "Europe/Berlin",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "America/Los_Angeles",
    "Pacific/Kiritimati",
  ];
  // Every 7 minutes over two days around a DST change (Berlin, 2026-10-25), and the top of an hour.
  const instants = [
    ...Array.from({ length: 2 * 24 * 9 }, (_, i) => new Date(Date.UTC(2026, 9, 24, 0, 7 * i))),
    new Date("2026-11-26T10:00:00Z"),
    new Date("2026-11-26T09:00:00Z"),
  ];

  it("names a time whose next run is at least 25 minutes away, whatever the zone", () => {
    for (const schedule of schedules)
      for (const tz of zones)
        for (const now of instants) {
          const [next] = nextRuns(schedule, quietTime(schedule, tz, now), tz, now, 1);
          const away = (next?.getTime() ?? 0) - now.getTime();
          expect(away, `${schedule.kind} ${tz} ${now.toISOString()}`).toBeGreaterThanOrEqual(25 * 60_000);
        }
  });
});
