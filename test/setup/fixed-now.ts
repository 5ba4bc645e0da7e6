import { vi } from "vitest";

/**
 * The `dates` project (vitest.config.ts): pure tests run as if the machine's clock read
 * INSIGHTS_TEST_NOW (an ISO instant with its zone), so a test that leans on today's date, or date
 * code that breaks on a year end or a DST night, fails in CI on any day rather than on that day.
 * Only `Date` is replaced (vi.setSystemTime without fake timers: timers run as usual), before the
 * test file is imported, so a `new Date()` at a module's top level reads the same instant. The clock
 * stands still at that instant for the whole file.
 */
const raw = process.env.INSIGHTS_TEST_NOW ?? "";
const at = Date.parse(raw);
if (Number.isNaN(at) || !/T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(raw))
  throw new Error(
    `INSIGHTS_TEST_NOW must be an ISO instant with its zone (e.g. 2027-11-25T12:00:00Z), got "${raw}"`,
  );
vi.setSystemTime(at);
