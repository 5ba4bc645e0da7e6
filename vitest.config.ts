import { configDefaults, defineConfig } from "vitest/config";
import { SlowFirstSequencer } from "./test/setup/sequencer.ts";

/**
 * The scenarios that also run with the app in Socket Mode (every delivery over the stand-in's
 * WebSocket instead of signed HTTP): on-demand digests, filters, modals, the App Home, the workflow
 * step and unfurls. Each file picks its transport with `inject("transport")`, so one suite runs both
 * ways. socket-mode.test.ts (reconnects) and try-it.test.ts (docs/try-it.md's walk) only make sense over
 * the socket.
 */
const SOCKET_SCENARIOS = [
  "test/e2e/digest-command.test.ts",
  "test/e2e/interactions.test.ts",
  "test/e2e/subscriptions-modal.test.ts",
  "test/e2e/app-home.test.ts",
  "test/e2e/workflow-step.test.ts",
  "test/e2e/unfurls.test.ts",
];
const SOCKET_ONLY = ["test/e2e/socket-mode.test.ts", "test/e2e/try-it.test.ts"];

/**
 * The pure tests of date handling, run by .ci/run at fixed instants (a year ahead, a New Year's Eve
 * at 23:30 UTC, DST nights): `INSIGHTS_TEST_NOW=<instant>[,<instant>…] npx vitest run --project
 * 'dates*'` makes one project per instant, each with that instant as the clock (test/setup/fixed-now.ts).
 * The projects exist only when the variable is set, so `npm test` runs each file once, at today.
 */
export const DATE_TESTS = [
  "test/unit/ranges.test.ts", // ranges, labels, the comparison period, explicit and relative ranges
  "test/unit/schedule.test.ts", // schedules, next runs across DST, periods of a run
  "test/unit/schedule-calendar.test.ts", // monthly, quarterly and working-day schedules, their gates and runs
  "test/unit/schedule-periods.test.ts", // what a range covers at the moment a schedule fires
  "test/unit/schedule-table.test.ts", // the first runs of every schedule form in Berlin, March 2027
  "test/unit/subscribe-modal.test.ts", // the next-runs preview of the subscribe modal
  "test/unit/subscribe-home.test.ts", // next runs and last deliveries on the App Home
  "test/unit/subscriptions.test.ts", // schedule validation, quiet hours
  "test/unit/conditions.test.ts", // conditions and alert periods
  "test/unit/grammar.test.ts", // dates and ranges in the command text
  "test/unit/insights-series.test.ts", // the daily series: days of a range, repair, timestamps
  "test/unit/insights-gaps.test.ts", // data gaps and the partial day
  "test/unit/digest.test.ts", // the digest's numbers over its days
  "test/unit/insights-trend.test.ts", // trend, peaks and quiet days
  "test/unit/insights-drivers.test.ts", // drivers' windows and period totals
  "test/unit/templates-chart.test.ts", // chart days and buckets
  "test/unit/chart-previous.test.ts", // the previous period aligned day by day
  "test/unit/emulator-model.test.ts", // the emulator's days, today and DST
  "test/unit/csv.test.ts", // the CSV's days and file name
];
/**
 * The tests whose outcome depends on the day they run, through the whole product (the app, its
 * worker and digest threads, the emulator's today, the demo as a child process): planted "unusual"
 * days and outages, alerts firing and clearing, the partial day of a digest, next runs. .ci/run runs
 * them at fixed instants too (`calendar …` projects, one per instant of INSIGHTS_TEST_NOW): each
 * weekday, a month end, a year end, a leap day, the DST nights of Europe and the US. Their clock is
 * test/setup/test-clock.ts's.
 */
export const CALENDAR_TESTS = [
  "test/e2e/alerts.test.ts", // an alert's message and controls, checked "now"
  "test/integration/alerts-unusual.test.ts", // unusual days, data gaps, weekly rhythms, snoozes
  "test/integration/alerts-fixrate.test.ts", // a fix rate over the alert's range, a day with no rate
  "test/e2e/demo.test.ts", // the whole demo, its planted scenarios and the unusual day among them
  "test/e2e/digest-command.test.ts", // digests of the current period, today partial
];
/**
 * The partition tests (test/partitions/): a Sentinel deployment and the app spread over network
 * namespaces, faults injected between them. They need root, take minutes and run as a step of their
 * own (`INSIGHTS_PARTITIONS=1 npx vitest run --project partitions`); the project exists only when
 * the variable is set, so `npm test` leaves them out.
 */
const PARTITIONS = process.env.INSIGHTS_PARTITIONS === "1";
const FIXED_INSTANTS = (process.env.INSIGHTS_TEST_NOW ?? "")
  .split(",")
  .map((at) => at.trim())
  .filter((at) => at !== "");

export default defineConfig({
  test: {
    globalSetup: ["test/setup/redis.ts"],
    // Integration tests start real servers; a generous ceiling only catches hangs, it is not a speed target.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Most files wait on real servers (Redis, HTTP, worker processes), not on the CPU: four at a time
    // keeps a 2-core machine busy without starving them (every timing in the tests has wide margins).
    maxWorkers: 4,
    // One module graph per worker, shared by the files it runs (no per-file isolation). Loading the
    // app's modules again for each file was a quarter of the suite's CPU, and the suite is CPU-bound on
    // a 2-core machine (a full run: 680 s of CPU in 375 s isolated, 526 s in 299 s shared). It is safe
    // because the app keeps its state in the instances a test creates and closes (apps, workers, stores,
    // caches); its modules hold only constants and memos keyed by content.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // Every inline project below inherits the options above (pool, isolate, timeouts) unless it sets
    // `extends: false`. The global setup is the run's, not a project's: it starts once per run, whichever
    // projects are selected, and what it provides (the Redis URLs) reaches every project.
    projects: [
      {
        test: {
          name: "http",
          include: ["test/integration/**/*.test.ts", "test/e2e/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SOCKET_ONLY],
          provide: { transport: "http" },
        },
      },
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "socket",
          include: [...SOCKET_SCENARIOS, ...SOCKET_ONLY],
          provide: { transport: "socket" },
        },
      },
      // The whole product at each instant: real Redis (the root's global setup), HTTP transport.
      ...FIXED_INSTANTS.map((at) => ({
        test: {
          name: `calendar ${at}`,
          include: CALENDAR_TESTS,
          env: { INSIGHTS_TEST_NOW: at },
          provide: { transport: "http" as const },
        },
      })),
      // Its own Redis deployment in namespaces: no global setup.
      ...(PARTITIONS
        ? [
            {
              test: {
                name: "partitions",
                include: ["test/partitions/**/*.test.ts"],
                pool: "forks" as const,
                maxWorkers: 1,
                testTimeout: 400_000,
                hookTimeout: 300_000,
              },
            },
          ]
        : []),
      // Pure files only: threads, their own timeout, none of the root's options (`extends: false`, since
      // inline projects inherit the root's by default). They use no Redis, though the run's global setup
      // still starts one.
      ...FIXED_INSTANTS.map((at) => ({
        extends: false as const,
        test: {
          name: `dates ${at}`,
          include: DATE_TESTS,
          setupFiles: ["test/setup/fixed-now.ts"],
          env: { INSIGHTS_TEST_NOW: at },
          // Pure and quick: one module graph per worker (no per-file isolation) keeps the step fast.
          pool: "threads" as const,
          isolate: false,
          testTimeout: 30_000,
        },
      })),
    ],
  },
});
