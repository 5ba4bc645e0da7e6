import { performance } from "node:perf_hooks";
import type { StandInState } from "../state.ts";
import { createEnvelopeBook } from "./envelopes.ts";
import { createLinks, type Link } from "./links.ts";
import type { ConnectionRecord, EnvelopeType } from "./types.ts";

export { MAX_CONNECTIONS, SOCKET_PATH, TICKET_TTL_MS } from "./links.ts";

/** Slack retries an event three times when it is not acknowledged. */
const EVENT_RETRIES = 3;

/** What the app answered to one envelope, in the shape of an HTTP delivery's result. */
export interface SocketAnswer {
  status: number;
  body: unknown;
  text: string;
  ackMs: number;
  error: string | undefined;
}

export interface SocketSideOptions {
  state: StandInState;
  appId: string;
  /** How often the stand-in pings each connection (Slack pings; clients watch for it). Default 10 s. */
  pingIntervalMs?: number;
}

const failure = (error: string, ackMs: number): SocketAnswer => ({
  status: 0,
  body: undefined,
  text: "",
  ackMs,
  error,
});

/**
 * Slack's side of Socket Mode: connections (links.ts), envelopes and their acks (envelopes.ts), and
 * Slack's rules for delivering: slash commands and interactions need an open connection now (else
 * `dispatch_failed`), events wait for one and are retried with `retry_attempt`.
 */
export function createSocketSide(o: SocketSideOptions) {
  const book = createEnvelopeBook(o.state);
  const links = createLinks({ ...o, book });

  async function sendOnce(c: Link, type: EnvelopeType, payload: unknown, attempt: number, timeoutMs: number) {
    const { record, settled } = book.open(type, c.record.id, attempt, timeoutMs);
    c.send({
      envelope_id: record.envelopeId,
      type,
      payload,
      accepts_response_payload: type !== "events_api",
      ...(type === "events_api"
        ? { retry_attempt: attempt, retry_reason: attempt > 0 ? "timeout" : "" }
        : {}),
    });
    return { record, ackMs: await settled };
  }

  return {
    handleUpgrade: links.handleUpgrade,
    disconnect: links.disconnect,
    drop: links.drop,

    /** Sends one payload in an envelope and waits for its ack (or Slack's verdict without one). */
    async deliver(type: EnvelopeType, payload: unknown, timeoutMs: number): Promise<SocketAnswer> {
      const started = performance.now();
      const isEvent = type === "events_api";
      let attempt = 0;
      for (;;) {
        const left = Math.max(0, timeoutMs - (performance.now() - started));
        let c = links.current();
        if (!c && isEvent) {
          // Slack's first attempt found nobody: what reaches the app later is a retry.
          c = await links.connection(left);
          attempt = Math.max(attempt, 1);
        }
        if (!c) {
          if (!isEvent) book.failed(type);
          return failure(
            isEvent ? "no connection opened in time" : "dispatch_failed",
            performance.now() - started,
          );
        }
        const { record, ackMs } = await sendOnce(c, type, payload, attempt, left);
        if (record.outcome === "acked") {
          const body =
            record.ackPayload && Object.keys(record.ackPayload).length > 0 ? record.ackPayload : undefined;
          return { status: 200, body, text: body ? JSON.stringify(body) : "", ackMs, error: undefined };
        }
        if (record.outcome === "waiting") record.outcome = "unacked";
        if (!isEvent || attempt >= EVENT_RETRIES)
          return failure("no ack before the connection closed", ackMs);
        attempt += 1;
      }
    },

    /** Resolves once a connection is open (the app reconnected), or rejects after `timeoutMs`. */
    async waitForConnection(timeoutMs = 15_000): Promise<ConnectionRecord> {
      const c = await links.connection(timeoutMs);
      if (!c) throw new Error(`no Socket Mode connection opened within ${timeoutMs} ms`);
      return { ...c.record };
    },
    connections: links.records,
    envelopes: book.list,
    dispatchFailures: book.failures,
    /** Forgets envelope and failure records (not the connections, which stay open). */
    clearRecords: book.clear,
    close: links.close,
  };
}

export type SocketSide = ReturnType<typeof createSocketSide>;
