import type { Logger } from "../../log.ts";

type WithAck = { ack?: (response?: unknown) => Promise<void> };

/**
 * An ack that cannot sink the request. Over Socket Mode the ack goes back on the WebSocket the
 * request came on; when Slack refreshes that connection between delivery and ack, sending fails.
 * The request is still answerable (response_url, the Web API), so the failure is logged and the
 * handler goes on instead of dropping the person's command.
 */
export function guardAck<A extends WithAck>(args: A, log: Logger): A {
  const ack = args.ack;
  if (!ack) return args;
  return {
    ...args,
    ack: async (response?: unknown) => {
      try {
        await ack(response);
      } catch (err) {
        log.warn({ err }, "could not acknowledge the request; handling it anyway");
      }
    },
  };
}
