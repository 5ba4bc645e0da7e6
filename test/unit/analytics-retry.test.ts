import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AnalyticsError,
  backoffMs,
  codeForStatus,
  DEFAULT_RETRY,
  parseRetryAfter,
  retryDelayMs,
} from "../../src/analytics/index.ts";
import { withRetry } from "../../src/analytics/retry.ts";
import { safeUrl, sanitizeText } from "../../src/analytics/sanitize.ts";
import { silentLogger } from "../../src/log.ts";

describe("codeForStatus", () => {
  it.each([
    [401, "unauthorized"],
    [403, "unauthorized"],
    [429, "rate_limited"],
    [500, "unavailable"],
    [503, "unavailable"],
    [408, "unavailable"],
    [400, "bad_request"],
    [404, "bad_request"],
    [422, "bad_request"],
  ])("%i → %s", (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-01T10:00:00Z");
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });
  it("reads an HTTP date relative to now, never negative", () => {
    expect(parseRetryAfter("Sun, 01 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Sun, 01 Nov 2026 09:00:00 GMT", now)).toBe(0);
  });
  it.each([[null], [undefined], [""], ["soon"], ["-3"], ["12abc"]])("ignores %j", (v) => {
    expect(parseRetryAfter(v, now)).toBeUndefined();
  });
});

describe("backoff", () => {
  const policy = { attempts: 5, baseMs: 100, maxMs: 1000, maxTotalMs: 10_000 };

  it("doubles the window per retry up to maxMs (random → 1 shows the window)", () => {
    const top = () => 0.999_999;
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, policy, top))).toEqual([99, 199, 399, 799, 999, 999]);
  });

  it("is full jitter: any value in [0, window)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, r) => {
          const d = backoffMs(n, policy, () => r);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThan(Math.min(policy.maxMs, policy.baseMs * 2 ** (n - 1)));
        },
      ),
    );
  });

  it("waits at least Retry-After, even past maxMs", () => {
    const err = new AnalyticsError("rate_limited", "slow down", { retryAfterMs: 5000 });
    expect(retryDelayMs(err, 1, policy, () => 0.5)).toBe(5000);
    const small = new AnalyticsError("rate_limited", "slow down", { retryAfterMs: 10 });
    expect(retryDelayMs(small, 3, policy, () => 0.5)).toBe(200);
  });

  it("has documented defaults", () => {
    expect(DEFAULT_RETRY).toEqual({ attempts: 3, baseMs: 300, maxMs: 4000, maxTotalMs: 20_000 });
  });
});

describe("withRetry", () => {
  /** A virtual clock: sleeping advances it, so budgets are testable without waiting. */
  function harness(policy = { attempts: 4, baseMs: 100, maxMs: 1000, maxTotalMs: 10_000 }) {
    let t = 0;
    const sleeps: number[] = [];
    const timeouts: number[] = [];
    const ctx = {
      policy,
      timeoutMs: 3000,
      sleep: async (ms: number) => {
        sleeps.push(ms);
        t += ms;
      },
      random: () => 0.5,
      now: () => t,
      logger: silentLogger(),
      label: {},
    };
    const run = (outcomes: (AnalyticsError | string)[]) => {
      let i = 0;
      return withRetry(async (timeoutMs) => {
        timeouts.push(timeoutMs);
        const o = outcomes[Math.min(i++, outcomes.length - 1)];
        if (o instanceof AnalyticsError) throw o;
        return o;
      }, ctx);
    };
    return { run, sleeps, timeouts, advance: (ms: number) => (t += ms) };
  }
  const unavailable = () => new AnalyticsError("unavailable", "503", { status: 503 });

  it("retries unavailable with growing jittered waits and returns the first success", async () => {
    const h = harness();
    await expect(h.run([unavailable(), unavailable(), "ok"])).resolves.toBe("ok");
    expect(h.sleeps).toEqual([50, 100]);
  });

  it.each(["unauthorized", "bad_request", "graphql", "bad_response"] as const)(
    "never retries %s",
    async (code) => {
      const h = harness();
      await expect(h.run([new AnalyticsError(code, "no"), "ok"])).rejects.toMatchObject({ code });
      expect(h.timeouts).toHaveLength(1);
    },
  );

  it("stops after the attempt cap with the last error", async () => {
    const h = harness();
    await expect(h.run([unavailable()])).rejects.toMatchObject({ code: "unavailable" });
    expect(h.timeouts).toHaveLength(4);
  });

  it("honours Retry-After and gives up when the wait would overshoot the total budget", async () => {
    const h = harness({ attempts: 5, baseMs: 100, maxMs: 1000, maxTotalMs: 4000 });
    const limited = (ms: number) => new AnalyticsError("rate_limited", "429", { retryAfterMs: ms });
    await expect(h.run([limited(1500), limited(3000), "ok"])).rejects.toMatchObject({ retryAfterMs: 3000 });
    expect(h.sleeps).toEqual([1500]);
  });

  it("shortens the per-attempt timeout to what is left of the budget", async () => {
    const h = harness({ attempts: 3, baseMs: 100, maxMs: 1000, maxTotalMs: 4000 });
    await expect(
      h.run([new AnalyticsError("rate_limited", "429", { retryAfterMs: 2000 }), "ok"]),
    ).resolves.toBe("ok");
    expect(h.timeouts).toEqual([3000, 2000]);
  });
});

describe("sanitizeText", () => {
  it("removes the key verbatim, ApiKey headers, control characters, and caps length", () => {
    const key = "k3y-ABCdef123";
    const out = sanitizeText(`unknown key ${key}\n(Authorization: ApiKey ${key})`, [key]);
    expect(out).not.toContain(key);
    expect(out).not.toMatch(/[\n\r]/);
    expect(sanitizeText("x".repeat(1000)).length).toBeLessThanOrEqual(300);
  });

  it("shows URLs without user-info or query", () => {
    expect(safeUrl("https://user:pw@api.example.com/analytics/graphql?token=abc#x")).toBe(
      "https://api.example.com/analytics/graphql",
    );
  });
});
