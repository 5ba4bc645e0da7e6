import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, slowest first (each 10–105 s on a 2-core machine beside the others:
 * worker processes started and killed, whole demos, lease expiries; measured over four full runs).
 * Vitest orders files by the durations it cached from an earlier run; a fresh clone (CI) has none,
 * so it would start them in directory order and the slowest could begin when the others are nearly
 * done, leaving the run waiting on one file. Started first, they overlap with everything else. A
 * file missing here is only started later, never skipped.
 */
export const SLOW_FILES = [
  // Builds the previous release from git history on its first run (about 90 s), then some 40 s.
  "test/e2e/rolling-deploy.test.ts",
  "test/integration/worker-stalled.test.ts",
  "test/integration/worker.test.ts",
  "test/integration/drivers-golden.test.ts",
  "test/e2e/demo-socket.test.ts",
  "test/e2e/demo.test.ts",
  "test/integration/worker-crash.test.ts",
  "test/integration/cli.test.ts",
  "test/integration/alerts-unusual.test.ts",
  "test/integration/alerts-model.test.ts",
  "test/e2e/fuzz.test.ts",
  "test/integration/backup-restore.test.ts",
  "test/e2e/interactive-queue.test.ts",
  "test/e2e/demo-keep.test.ts",
  "test/integration/purge.test.ts",
  "test/integration/worker-runs.test.ts",
  "test/integration/redis-failover.test.ts",
  "test/unit/insights-gaps-generated.test.ts",
  "test/integration/jobs-slots.test.ts",
  "test/integration/worker-takeover.test.ts",
  "test/integration/worker-drivers.test.ts",
  "test/e2e/secrets-in-logs.test.ts",
  "test/integration/worker-chart.test.ts",
  "test/e2e/analytics-faults.test.ts",
  "test/e2e/subscriptions-start.test.ts",
  "test/e2e/socket-mode.test.ts",
];

/** Vitest's own order (cached durations, failures first), with the known slow files moved to the front. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FILES.indexOf(relative(spec.project.config.root, spec.moduleId).replaceAll("\\", "/"));
      return at === -1 ? SLOW_FILES.length : at;
    };
    return ordered
      .map((spec, i) => ({ spec, i, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
