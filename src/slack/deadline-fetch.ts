/** Slack's calls get this deadline unless SLACK_TIMEOUT_MS says otherwise. */
export const SLACK_TIMEOUT_MS = 10_000;

/**
 * A fetch whose every request gives up after `ms` (an AbortSignal.timeout joined to the caller's
 * own signal). Bolt posts `respond()` to the response_url with its client's fetch, which has no
 * deadline of its own.
 */
export function deadlineFetch(ms: number, base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init = {}) => {
    const deadline = AbortSignal.timeout(ms);
    return base(input, {
      ...init,
      signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline,
    });
  };
}
