import { beforeEach, describe, expect, it } from "vitest";
import type { Fault } from "../../sandbox/analytics/index.ts";
import { loadConfig } from "../../src/config.ts";

const PROD_ENV = {
  REDIS_URL: "redis://x",
  ENCRYPTION_KEYS: `k1:${Buffer.alloc(32).toString("base64")}`,
  ANALYTICS_GRAPHQL_URL: "http://x/analytics/graphql",
  SLACK_SIGNING_SECRET: "0123456789",
  SLACK_BOT_TOKEN: "xoxb-x",
};

import { command, useFileStack } from "./helpers.ts";

let n = 0;

// Production timeouts (no override): the 10 s promise must hold with the defaults users run.
const stack = useFileStack(`e2e-faults-${process.pid}`, {
  env: { ANALYTICS_TIMEOUT_MS: String(loadConfig("web", PROD_ENV).analytics.timeoutMs) },
  connect: true,
});
beforeEach(() => stack.emulator.clearFaults());

// Each case asks for a different range so the shared cache never answers for the service.
const cases: [string, Fault, number, RegExp][] = [
  ["down (503)", { kind: "status", status: 503 }, 10, /did not answer.*Nothing is lost/s],
  ["slow past the timeout", { kind: "hang" }, 10, /did not answer/],
  ["rate limited", { kind: "rate_limit", retryAfterSeconds: 30 }, 10, /busy.*Try again in 30 seconds/s],
  ["garbage", { kind: "malformed", body: "<html>oops" }, 10, /something unexpected/],
  [
    "wrong shape",
    { kind: "reply", body: { data: { insights: { dailyMetric: "nope" } } } },
    10,
    /something unexpected/,
  ],
  [
    "key revoked (401)",
    { kind: "status", status: 401 },
    10,
    /did not accept the API key.*\/insights connect/s,
  ],
];

describe("the analytics service misbehaving", () => {
  it.each(cases)(
    "%s: the user gets the matching message within 10 s",
    async (_name, fault, times, expected) => {
      stack.emulator.inject(fault, times);
      const started = Date.now();
      const { body } = await command(stack, `last${20 + n++}d`);
      const elapsed = Date.now() - started;
      expect(elapsed).toBeLessThan(10_000);
      const text = `${body.text} ${JSON.stringify(body.blocks)}`;
      expect(text).toMatch(expected);
      expect(text).not.toMatch(/\b0 findings/);
    },
  );
});
