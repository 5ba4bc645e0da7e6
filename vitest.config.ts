import { configDefaults, defineConfig } from "vitest/config";

/**
 * The scenarios that also run with the app in Socket Mode (every delivery over the stand-in's
 * WebSocket instead of signed HTTP): on-demand digests, filters, modals, the App Home, the workflow
 * step and unfurls. Each file picks its transport with `inject("transport")`, so one suite runs both
 * ways. socket-mode.test.ts (reconnects) only makes sense over the socket.
 */
const SOCKET_SCENARIOS = [
  "test/e2e/digest-command.test.ts",
  "test/e2e/interactions.test.ts",
  "test/e2e/subscriptions-modal.test.ts",
  "test/e2e/app-home.test.ts",
  "test/e2e/workflow-step.test.ts",
  "test/e2e/unfurls.test.ts",
];
const SOCKET_ONLY = ["test/e2e/socket-mode.test.ts"];

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
    projects: [
      {
        extends: true,
        test: {
          name: "http",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...SOCKET_ONLY],
          provide: { transport: "http" },
        },
      },
      {
        extends: true,
        test: {
          name: "socket",
          include: [...SOCKET_SCENARIOS, ...SOCKET_ONLY],
          provide: { transport: "socket" },
        },
      },
    ],
  },
});
