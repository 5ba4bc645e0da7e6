import type { Logger } from "../log.ts";
import { AnalyticsError } from "./analytics-errors.ts";

/** How hard to try. Attempts count the first try; the total bounds sleeps and request time together. */
export interface RetryPolicy {
  /** Total tries, first included. Default 3. */
  attempts: number;
  /** Backoff cap before jitter for the first retry; doubles each retry. Default 300 ms. */
  baseMs: number;
  /** Largest backoff window. Default 4000 ms. */
  maxMs: number;
  /** Wall-clock budget for the whole call including waits. Default 20000 ms. */
  maxTotalMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseMs: 300, maxMs: 4000, maxTotalMs: 20_000 };

/** Full jitter (AWS architecture blog): uniform in [0, min(max, base·2^(retry-1))). `retry` starts at 1. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const window = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * window);
}

/** The wait before retry number `retry`: the jittered backoff, but never less than Retry-After asked. */
export function retryDelayMs(
  err: AnalyticsError,
  retry: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  return Math.max(backoffMs(retry, policy, random), err.retryAfterMs ?? 0);
}

export interface RetryContext {
  policy: RetryPolicy;
  /** Per-attempt timeout; shortened to what is left of the total budget. */
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  logger: Logger;
  /** For logs only (operation and safe endpoint). */
  label: Record<string, unknown>;
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, runs out of attempts, or the
 * next wait would overshoot the total budget. Only `unavailable` and `rate_limited` are retried:
 * repeating a 4xx, a GraphQL error or a bad reply gives the same answer and wastes quota.
 */
export async function withRetry<T>(
  attempt: (timeoutMs: number) => Promise<T>,
  ctx: RetryContext,
): Promise<T> {
  const started = ctx.now();
  for (let n = 1; ; n++) {
    const left = ctx.policy.maxTotalMs - (ctx.now() - started);
    try {
      return await attempt(Math.max(1, Math.min(ctx.timeoutMs, left)));
    } catch (err) {
      if (!(err instanceof AnalyticsError) || !err.retryable || n >= ctx.policy.attempts) throw err;
      const delay = retryDelayMs(err, n, ctx.policy, ctx.random);
      const elapsed = ctx.now() - started;
      if (elapsed + delay >= ctx.policy.maxTotalMs) throw err;
      ctx.logger.warn(
        { ...ctx.label, code: err.code, status: err.status, attempt: n, delayMs: delay },
        "analytics retry",
      );
      await ctx.sleep(delay);
    }
  }
}

/** Real-time sleep, the default for `sleep`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
