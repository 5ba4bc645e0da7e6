import { isAppError } from "../errors.ts";
import { SlackCallError } from "./slack-api.ts";

/**
 * What a delivery does about an error:
 * - `transient`: throw, BullMQ retries with exponential backoff; on the last attempt a failure
 *   notice is posted instead of a digest.
 * - `rate_limited`: Slack 429; the worker pauses the queue for Retry-After and the job waits (no attempt used).
 * - `permanent`: retrying cannot help until a person acts; pause the subscription and tell its owner.
 * - `fatal`: retrying gives the same answer (bad reply, our own bug); fail now with one notice.
 */
export type FailureKind = "transient" | "rate_limited" | "permanent" | "fatal";

/** The verdict on one error. */
export interface Failure {
  kind: FailureKind;
  /** Slack's error string or our AppError code, stored as the subscription's reason. */
  reason: string;
  retryAfterMs?: number;
}

/** The channel or the app's access to it is gone: any call there, a post included, fails the same way. */
export const CHANNEL_OR_TOKEN_GONE: readonly string[] = [
  "channel_not_found",
  "is_archived",
  "not_in_channel",
  "invalid_auth",
  "account_inactive",
  "token_revoked",
];

const SLACK_PERMANENT = new Set([
  ...CHANNEL_OR_TOKEN_GONE,
  "token_expired",
  "not_authed",
  "no_permission",
  "missing_scope",
  "team_access_not_granted",
  "ekm_access_denied",
  // A workspace or channel preference forbids the post (read-only, thread-only channels, an admin
  // restriction, Enterprise Grid policy): only a person changing that setting helps.
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "access_denied",
  "enterprise_is_restricted",
]);

/** Slack's throttling answers: `ratelimited` with HTTP 429, `rate_limited` in a 200 body (chat.* methods). */
const SLACK_RATE_LIMITED = new Set(["ratelimited", "rate_limited"]);

const SLACK_TRANSIENT = new Set([
  "internal_error",
  "fatal_error",
  "service_unavailable",
  "request_timeout",
  "network",
  "bad_response",
]);

// token_expired here is the installation store failing to refresh a rotating token: worth another try.
const APP_TRANSIENT = new Set([
  "unavailable",
  "rate_limited",
  "redis_unavailable",
  "token_expired",
  // A Redis replica did not confirm a claim in time: nothing was posted, and it may confirm next time.
  "redis_unconfirmed",
]);
const APP_PERMANENT = new Set([
  "unauthorized",
  "not_connected",
  "decrypt_failed",
  "installation_not_found",
  // An asset group the subscription is filtered to is gone: every run would fail the same way.
  "group_gone",
]);

/** Default wait when a 429 comes without Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 1_000;

/** Sorts an error from building or posting a digest into what the job does next. */
export function classifyFailure(err: unknown): Failure {
  if (err instanceof SlackCallError) {
    const reason = err.slackError;
    if (err.status === 429 || SLACK_RATE_LIMITED.has(reason))
      return {
        kind: "rate_limited",
        reason: "ratelimited",
        retryAfterMs: err.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS,
      };
    if (err.code !== "slack_error") return { kind: "transient", reason };
    if (SLACK_PERMANENT.has(reason)) return { kind: "permanent", reason };
    if (SLACK_TRANSIENT.has(reason)) return { kind: "transient", reason };
    return { kind: "fatal", reason };
  }
  if (isAppError(err)) {
    if (APP_TRANSIENT.has(err.code)) return { kind: "transient", reason: err.code };
    if (APP_PERMANENT.has(err.code)) return { kind: "permanent", reason: err.code };
    return { kind: "fatal", reason: err.code };
  }
  // Redis blips, timeouts and anything unforeseen: worth another try.
  return { kind: "transient", reason: "internal" };
}

/** Where a recorded failure came from, for the failure counter's `source` label and the ops view. */
export type FailureSource = "slack" | "analytics" | "app";

/** The analytics client's codes (analytics/types.ts) and not having a key to call it with. */
const ANALYTICS_REASONS = new Set([
  "unauthorized",
  "rate_limited",
  "unavailable",
  "bad_response",
  "graphql",
  "bad_request",
  "not_connected",
]);

/** Slack answers worth a label of their own besides the ones the classifier sorts by name. */
const SLACK_NOTABLE = new Set(["invalid_blocks", "invalid_arguments", "msg_too_long", "channel_is_archived"]);

const SLACK_REASONS = new Set([...SLACK_PERMANENT, ...SLACK_TRANSIENT, ...SLACK_NOTABLE, "ratelimited"]);

/** Our own reasons: the delivery's machinery, not Slack or the analytics service. */
const APP_REASONS = new Set([...APP_TRANSIENT, ...APP_PERMANENT, "stalled", "unverifiable", "internal"]);

/**
 * Where a stored failure reason came from. `bad_response` is the analytics service's (a Slack reply
 * that is not JSON is stored under the same word, and is far rarer); `http_<status>` and `network`
 * are Slack's (the analytics client names those `unavailable`).
 */
export function failureSource(reason: string): FailureSource {
  if (ANALYTICS_REASONS.has(reason)) return "analytics";
  if (SLACK_REASONS.has(reason) || /^http_\d{3}$/.test(reason)) return "slack";
  return "app";
}

/**
 * A stored failure reason as a metric label: one of a fixed set, so no reply of Slack's or of the
 * service can grow the number of series (`http_<status>` → `http_error`, anything unknown → `other`).
 */
export function failureLabel(reason: string): string {
  if (ANALYTICS_REASONS.has(reason) || SLACK_REASONS.has(reason) || APP_REASONS.has(reason)) return reason;
  return /^http_\d{3}$/.test(reason) ? "http_error" : "other";
}
