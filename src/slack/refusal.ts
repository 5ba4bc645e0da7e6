import { refusesNative } from "../blockkit/native.ts";

/**
 * Slack's refusal of a message as the clients report it: the Web API client's platform error
 * (`data.error`, `data.errors` or `data.response_metadata.messages`), the worker's SlackCallError
 * (`slackError`, `messages`), or a response_url reply turned into an AppError (`details.slackError`,
 * which loses the messages). Used to tell a refused chart or table block from any other failure.
 */
export interface Refusal {
  error: string;
  messages: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((m): m is string => typeof m === "string").slice(0, 50) : [];

/** The refusal an error carries, or null when it is not Slack saying no. */
export function refusalOf(err: unknown): Refusal | null {
  const e = err as {
    data?: { error?: unknown; errors?: unknown; response_metadata?: { messages?: unknown } };
    slackError?: unknown;
    messages?: unknown;
    details?: { slackError?: unknown };
  } | null;
  if (!e || typeof e !== "object") return null;
  if (typeof e.data?.error === "string")
    return {
      error: e.data.error,
      messages: [...strings(e.data.errors), ...strings(e.data.response_metadata?.messages)],
    };
  if (typeof e.slackError === "string") return { error: e.slackError, messages: strings(e.messages) };
  if (typeof e.details?.slackError === "string") return { error: e.details.slackError, messages: [] };
  return null;
}

/**
 * Sends `native`; when Slack refuses its chart or table block, sends `fallback()` once instead (the
 * same digest without them). Any other failure, and a failure of the fallback, is thrown.
 *
 * @example await sendWithFallback(digestMessage(view), () => digestMessage({ ...view, chartStyle: "off" }), post)
 */
export async function sendWithFallback<M extends { blocks: unknown[] }, R>(
  native: M,
  fallback: () => M,
  send: (message: M) => Promise<R>,
  onFallback?: (refusal: Refusal) => void,
): Promise<R> {
  try {
    return await send(native);
  } catch (err) {
    const refusal = refusalOf(err);
    if (!refusal || !refusesNative(refusal, native.blocks)) throw err;
    onFallback?.(refusal);
    return send(fallback());
  }
}
