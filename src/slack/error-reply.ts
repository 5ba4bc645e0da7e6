import { randomBytes } from "node:crypto";
import { errorMessage } from "../../templates/error-message.ts";
import { isAppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { redactText } from "../log.ts";

/** Codes whose messages are safe and useful to show as they are. */
const USER_FACING = new Set([
  "unauthorized",
  "rate_limited",
  "unavailable",
  "bad_response",
  "graphql",
  "bad_request",
  "bad_range",
  "bad_timezone",
  "bad_filter",
  "group_gone",
  "bad_syntax",
  "filters_unavailable",
  "not_connected",
  "forbidden",
  "unknown_command",
  "not_in_channel",
  "decrypt_failed",
  "bad_state",
  "unknown_user",
  // Subscriptions: every message says what to change.
  "invalid_subscription",
  "subscription_not_found",
  "too_many_subscriptions",
  "channel_archived",
  "bad_channel",
  // Conditions, personal digests: the message says what is wrong (a condition error, with the grammar).
  "bad_condition",
  "dm_unavailable",
]);

/**
 * The single place an error becomes a Slack message. Expected errors (a `code` we know) get their
 * template; anything else gets a generic message with a reference id that is also logged, so
 * support can find the stack trace without the user seeing it.
 */
export function errorReply(err: unknown, logger: Logger, where: Record<string, unknown> = {}) {
  if (isAppError(err) && err.code === "decrypt_failed") {
    // The keyring changed under a stored key: say what an operator can do, never which key failed how.
    logger.error({ ...where, err }, "stored secret could not be decrypted");
    return errorMessage({
      code: "decrypt_failed",
      message:
        "The stored API key can't be read with this server's ENCRYPTION_KEYS. An admin can run /insights connect again.",
    });
  }
  if (isAppError(err) && USER_FACING.has(err.code)) {
    logger.info({ ...where, code: err.code }, "request ended with an expected error");
    const retryAfterMs = typeof err.details.retryAfterMs === "number" ? err.details.retryAfterMs : undefined;
    const suggestion = typeof err.details.suggestion === "string" ? err.details.suggestion : undefined;
    return errorMessage({ code: err.code, message: redactText(err.message), retryAfterMs, suggestion });
  }
  const referenceId = randomBytes(4).toString("hex");
  logger.error({ ...where, err, referenceId }, "unexpected error while handling a Slack request");
  return errorMessage({ code: "internal", referenceId });
}
