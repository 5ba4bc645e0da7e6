import { defineConfig } from "vitest/config";

/**
 * The scenarios that also run with the app in Socket Mode (every delivery over the stand-in's
 * WebSocket instead of signed HTTP): on-demand digests, filters, modals and the App Home. Each file
 * picks its transport with `inject("transport")`, so one suite runs both ways.
 */
const SOCKET_SCENARIOS = [
  "test/e2e/digest-command.test.ts",
  "test/e2e/interactions.test.ts",
  "test/e2e/subscriptions-modal.test.ts",
  "test/e2e/app-home.test.ts",
];

export default defineConfig({
  test: {
    globalSetup: ["test/setup/redis.ts"],
    // Integration tests start real servers; a generous ceiling only catches hangs, it is not a speed target.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        test: { name: "http", include: ["test/**/*.test.ts"], provide: { transport: "http" } },
      },
      {
        extends: true,
        test: { name: "socket", include: SOCKET_SCENARIOS, provide: { transport: "socket" } },
      },
    ],
  },
});
