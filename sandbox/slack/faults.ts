import { HttpFault } from "./api/context.ts";
import type { Fault, StandInState } from "./state.ts";

/** Queues a fault for the next `times` calls of `method` (a Web API method, `response_url` or `upload`). */
export function addFault(
  state: StandInState,
  method: string,
  fault: Omit<Fault, "remaining">,
  times: number,
): void {
  const list = state.faults.get(method) ?? [];
  list.push({ ...fault, remaining: Math.max(1, Math.floor(times)) });
  state.faults.set(method, list);
}

/** The fault this call of `method` must suffer, if any; faults are used up in the order injected. */
export function takeFault(state: StandInState, method: string): Fault | undefined {
  const list = state.faults.get(method);
  const head = list?.[0];
  if (!list || !head) return undefined;
  head.remaining -= 1;
  if (head.remaining <= 0) list.shift();
  return head;
}

const WINDOW_MS = 1000;

/**
 * Slack's posting limit: about `perChannelPerSecond` messages per channel in any one second. Past it,
 * HTTP 429 with `Retry-After` in whole seconds (at least 1, as Slack sends). Refused posts do not
 * count towards the window, so a client that waits as told gets through.
 */
export function checkPostRate(state: StandInState, channelId: string): void {
  const { enabled, perChannelPerSecond } = state.rateLimit;
  if (!enabled) return;
  const now = state.now();
  const recent = (state.postTimes.get(channelId) ?? []).filter((t) => now - t < WINDOW_MS);
  if (recent.length >= perChannelPerSecond) {
    state.postTimes.set(channelId, recent);
    const oldest = recent[0] ?? now;
    const retryAfter = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    throw new HttpFault(429, "ratelimited", retryAfter);
  }
  recent.push(now);
  state.postTimes.set(channelId, recent);
}
