import { performance } from "node:perf_hooks";
import { type SignMode, signatureHeaders } from "./sign.ts";

/** What the app answered to one delivery. */
export interface SendResult {
  /** HTTP status; 0 when the app did not answer within the timeout or refused the connection. */
  status: number;
  /** The reply parsed as JSON when it is JSON, else the text, else undefined for an empty reply. */
  body: unknown;
  text: string;
  headers: Record<string, string>;
  /** Time to the app's HTTP answer (its `ack()`); Slack gives up after 3,000 ms. */
  ackMs: number;
  /** The response_url minted for this delivery, when it carried one. */
  responseUrl: string | undefined;
  /** The trigger_id minted for this delivery (valid for 3 s), when it carried one. */
  triggerId: string | undefined;
  /** Transport failure (timeout, connection refused), when status is 0. */
  error: string | undefined;
}

/** Delivery options every send accepts. */
export interface DeliveryOptions {
  sign?: SignMode;
  /** Sends `X-Slack-Retry-Num` (and `X-Slack-Retry-Reason`) as Slack does on redeliveries. */
  retryNum?: number;
  retryReason?: string;
  /** Overrides the stand-in's `appUrl` for this request. */
  url?: string;
  /** Gives up waiting for the app after this long (default 10,000 ms; Slack's own limit is 3,000). */
  timeoutMs?: number;
}

export interface Delivery {
  url: string;
  secret: string;
  body: string;
  contentType: string;
  options: DeliveryOptions;
}

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** POSTs one signed delivery to the app and times its answer. */
export async function deliver(d: Delivery): Promise<Omit<SendResult, "responseUrl" | "triggerId">> {
  const o = d.options;
  const headers: Record<string, string> = {
    "Content-Type": d.contentType,
    "User-Agent": "Slackbot 1.0 (+https://api.slack.com/robots)",
    // Each delivery on a connection of its own. A kept-alive idle connection races the app's server
    // closing it at its keep-alive timeout (5 s): a delivery sent just as a stalled event loop fires
    // both timers went out on a socket the server then reset, and the app never saw it.
    Connection: "close",
    ...signatureHeaders(d.secret, d.body, o.sign ?? "ok"),
  };
  if (o.retryNum !== undefined) {
    headers["X-Slack-Retry-Num"] = String(o.retryNum);
    headers["X-Slack-Retry-Reason"] = o.retryReason ?? "http_timeout";
  }
  const started = performance.now();
  try {
    const res = await fetch(o.url ?? d.url, {
      method: "POST",
      headers,
      body: d.body,
      redirect: "manual",
      signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    const ackMs = performance.now() - started;
    return {
      status: res.status,
      body: parseBody(text),
      text,
      headers: Object.fromEntries(res.headers),
      ackMs,
      error: undefined,
    };
  } catch (err) {
    const ackMs = performance.now() - started;
    // fetch's own message is "fetch failed"; what failed (a reset, a refused connection) is its cause.
    const cause = err instanceof Error && err.cause !== undefined ? ` (${describeCause(err.cause)})` : "";
    return { status: 0, body: undefined, text: "", headers: {}, ackMs, error: `${String(err)}${cause}` };
  }
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const code = (cause as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${cause.message}` : cause.message;
}
