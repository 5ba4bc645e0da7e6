import { AppError } from "../errors.ts";
import type { AnalyticsErrorCode } from "./types.ts";

export interface AnalyticsErrorOptions {
  cause?: unknown;
  /** HTTP status of the reply, when there was one. */
  status?: number;
  /** From Retry-After on a 429: how long the service asked us to wait. */
  retryAfterMs?: number;
  /** Sanitized messages of a GraphQL `errors` array. */
  graphqlMessages?: string[];
  /** The endpoint, already stripped of credentials (see safeUrl). */
  endpoint?: string;
  /** Of a GraphQL `errors` array: the root fields (aliases) the errors name, so a batch maps each failure to its part. */
  failedFields?: string[];
  /** What the failed fields stood for, in the caller's words (the drivers' slice labels). */
  slices?: string[];
}

/**
 * Every failure of the analytics client. Messages are built by the client from sanitized parts
 * only, so they never carry the API key or the Authorization header.
 *
 * @example
 * try { await client.insights(key, q) } catch (e) {
 *   if (e instanceof AnalyticsError && e.code === "unauthorized") askForANewKey();
 * }
 */
export class AnalyticsError extends AppError<AnalyticsErrorCode> {
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly graphqlMessages: readonly string[];

  constructor(code: AnalyticsErrorCode, message: string, options: AnalyticsErrorOptions = {}) {
    const { cause, ...details } = options;
    super(code, message, { cause, details: stripUndefined(details) });
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.graphqlMessages = options.graphqlMessages ?? [];
  }

  /** Whether trying again later can help (the retry loop and the jobs layer branch on this). */
  get retryable(): boolean {
    return this.code === "unavailable" || this.code === "rate_limited";
  }
}

/**
 * The same failure told in a caller's terms: its failed fields under the caller's own aliases, and
 * optionally another message and what the fields stood for. Everything else is kept.
 */
export function retold(
  err: AnalyticsError,
  told: { failedFields: string[]; message?: string; slices?: string[] },
): AnalyticsError {
  return new AnalyticsError(err.code, told.message ?? err.message, {
    cause: err,
    status: err.status,
    retryAfterMs: err.retryAfterMs,
    graphqlMessages: [...err.graphqlMessages],
    endpoint: err.details.endpoint as string | undefined,
    failedFields: told.failedFields,
    slices: told.slices,
  });
}

/** Narrows an unknown failure to the analytics client's error. */
export function isAnalyticsError(err: unknown): err is AnalyticsError {
  return err instanceof AnalyticsError;
}

function stripUndefined(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Unparseable
 * values give undefined so the caller falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The error code for a non-2xx HTTP status. */
export function codeForStatus(status: number): AnalyticsErrorCode {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 429) return "rate_limited";
  if (status >= 500) return "unavailable";
  // 408 is the server giving up waiting: as transient as a gateway timeout.
  if (status === 408) return "unavailable";
  if (status >= 400) return "bad_request";
  return "bad_response";
}
