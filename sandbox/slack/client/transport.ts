import type { SocketSide } from "../socket/server.ts";
import type { EnvelopeType } from "../socket/types.ts";
import type { SendResult } from "./http.ts";
import { type Delivery, deliver } from "./http.ts";

/** How deliveries reach the app: signed HTTP POSTs to its request URL, or envelopes over Socket Mode. */
export type Transport = "http" | "socket";

/**
 * What Slack puts in a Socket Mode envelope for a request it would otherwise POST: slash commands
 * as an object of the form's fields, interactions as the `payload` JSON, events as the JSON body.
 */
function envelopeOf(body: string, contentType: string): { type: EnvelopeType; payload: unknown } {
  if (contentType.startsWith("application/json")) return { type: "events_api", payload: JSON.parse(body) };
  const form = new URLSearchParams(body);
  const payload = form.get("payload");
  if (payload !== null) return { type: "interactive", payload: JSON.parse(payload) };
  return { type: "slash_commands", payload: Object.fromEntries(form) };
}

/**
 * Delivers one request the way the app is configured to receive it. Over the socket there is no
 * signature (the connection is the proof): `sign`, `retryNum` and `url` only apply to HTTP.
 */
export async function transmit(
  transport: Transport,
  socket: SocketSide,
  d: Delivery,
): Promise<Omit<SendResult, "responseUrl" | "triggerId">> {
  if (transport === "http") return deliver(d);
  const { type, payload } = envelopeOf(d.body, d.contentType);
  const r = await socket.deliver(type, payload, d.options.timeoutMs ?? 10_000);
  return { status: r.status, body: r.body, text: r.text, headers: {}, ackMs: r.ackMs, error: r.error };
}
