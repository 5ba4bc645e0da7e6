import { isWriteUnconfirmed } from "../store/confirm-writes.ts";
import { RESPONSE_URL_TTL_MS } from "./response-url.ts";
import { REDIS_RETRY_MS } from "./stream.ts";
import type { InteractiveJob } from "./types.ts";

/**
 * When a request whose run failed on Redis runs again on the consumer that holds it (its
 * `retryInMs`): a second later, rather than after a takeover that counts as a death, since its entry
 * may have been lost with the primary that held it and this consumer still holds the job. The
 * request's claim keeps it to one answer. A write no replica confirmed: for as long as its
 * response_url lives; anything else: for two minutes after the request came.
 */
export function retryOnRedis(err: unknown, job: InteractiveJob, now = Date.now()): number | undefined {
  const window = isWriteUnconfirmed(err) ? RESPONSE_URL_TTL_MS : REDIS_RETRY_MS;
  return now - job.receivedAt < window ? 1_000 : undefined;
}
