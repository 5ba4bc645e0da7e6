import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/redis.ts"],
    // Integration tests start real servers; a generous ceiling only catches hangs, it is not a speed target.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
