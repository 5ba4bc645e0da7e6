import type { IncomingMessage } from "node:http";
import { performance } from "node:perf_hooks";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { randomHex } from "../ids.ts";
import type { StandInState } from "../state.ts";
import type {
  ConnectionRecord,
  DisconnectReason,
  DispatchFailure,
  EnvelopeRecord,
  EnvelopeType,
} from "./types.ts";

/** Path of the WebSocket URLs apps.connections.open hands out. */
export const SOCKET_PATH = "/link/";
/** A URL from apps.connections.open must be used soon; Slack's are short-lived too. */
export const TICKET_TTL_MS = 30_000;
/** Slack allows an app ten open connections; the eleventh is told `too_many_websockets`. */
export const MAX_CONNECTIONS = 10;
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

interface Live {
  record: ConnectionRecord;
  ws: WebSocket;
  ping: NodeJS.Timeout;
}

const DEBUG_INFO = { host: "applink-standin", build_number: 1, approximate_connection_time: 18_060 };

/**
 * Slack's side of Socket Mode: WebSocket connections opened with a ticket from apps.connections.open,
 * `hello` on connect, envelopes with an `envelope_id` that the app must ack on the same socket,
 * `disconnect` messages, and Slack's rules when no connection is open: slash commands and
 * interactions fail at once (`dispatch_failed`), events wait and are retried with `retry_attempt`.
 */
export function createSocketSide(o: SocketSideOptions) {
  const { state } = o;
  const wss = new WebSocketServer({ noServer: true });
  const live: Live[] = [];
  const envelopes: EnvelopeRecord[] = [];
  const failures: DispatchFailure[] = [];
  const ackWaiters = new Map<string, () => void>();
  let openWaiters: (() => void)[] = [];
  let nextId = 1;

  const openOnes = () => live.filter((c) => c.record.state === "open");
  const send = (c: Live, message: Record<string, unknown>) => c.ws.send(JSON.stringify(message));

  function onMessage(c: Live, data: unknown) {
    let message: { envelope_id?: unknown; payload?: unknown };
    try {
      message = JSON.parse(String(data)) as typeof message;
    } catch {
      return;
    }
    const env = envelopes.find((e) => e.envelopeId === message.envelope_id && e.connectionId === c.record.id);
    if (!env) return;
    env.acks += 1;
    if (env.acks > 1) return;
    env.ackedAt = state.now();
    env.outcome = "acked";
    const payload = message.payload;
    env.ackPayload =
      typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
    ackWaiters.get(env.envelopeId)?.();
  }

  function onClose(c: Live) {
    clearInterval(c.ping);
    c.record.state = "closed";
    c.record.closedAt = state.now();
    for (const e of envelopes)
      if (e.connectionId === c.record.id && e.outcome === "waiting") {
        e.outcome = "unacked";
        ackWaiters.get(e.envelopeId)?.();
      }
  }

  function onConnection(ws: WebSocket) {
    const record: ConnectionRecord = {
      id: nextId++,
      state: "connecting",
      openedAt: state.now(),
      closedAt: undefined,
      disconnects: [],
    };
    const c: Live = { record, ws, ping: setInterval(() => ws.ping(), o.pingIntervalMs ?? 10_000) };
    c.ping.unref();
    live.push(c);
    ws.on("message", (data) => onMessage(c, data));
    ws.on("close", () => onClose(c));
    ws.on("error", () => undefined);
    const current = live.filter((l) => l.record.state === "open" || l.record.state === "connecting");
    if (current.length > MAX_CONNECTIONS) {
      record.disconnects.push("too_many_websockets");
      record.state = "closing";
      send(c, { type: "disconnect", reason: "too_many_websockets", debug_info: { host: DEBUG_INFO.host } });
      return;
    }
    send(c, {
      type: "hello",
      num_connections: current.length,
      debug_info: DEBUG_INFO,
      connection_info: { app_id: o.appId },
    });
    // Frames are read in order, so the pong to a ping sent after hello proves the app has read
    // hello: only then is the connection used (and reported to tests as open).
    ws.once("pong", () => {
      if (record.state !== "connecting") return;
      record.state = "open";
      const waiting = openWaiters;
      openWaiters = [];
      for (const w of waiting) w();
    });
    ws.ping();
  }

  /** A connection to send on: the newest open one, or the first to open within `waitMs`. */
  async function connection(waitMs: number): Promise<Live | undefined> {
    const now = openOnes().at(-1);
    if (now || waitMs <= 0) return now;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, waitMs);
      openWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    return openOnes().at(-1);
  }

  async function sendOnce(c: Live, type: EnvelopeType, payload: unknown, attempt: number, timeoutMs: number) {
    const record: EnvelopeRecord = {
      envelopeId: `${randomHex(4)}-${randomHex(2)}-${randomHex(2)}-${randomHex(2)}-${randomHex(6)}`,
      type,
      connectionId: c.record.id,
      sentAt: state.now(),
      retryAttempt: attempt,
      acks: 0,
      ackedAt: undefined,
      ackPayload: undefined,
      outcome: "waiting",
    };
    envelopes.push(record);
    const started = performance.now();
    const settled = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      ackWaiters.set(record.envelopeId, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    send(c, {
      envelope_id: record.envelopeId,
      type,
      payload,
      accepts_response_payload: type !== "events_api",
      ...(type === "events_api"
        ? { retry_attempt: attempt, retry_reason: attempt > 0 ? "timeout" : "" }
        : {}),
    });
    await settled;
    ackWaiters.delete(record.envelopeId);
    return { record, ackMs: performance.now() - started };
  }

  return {
    /** Takes the HTTP upgrade of a `/link/?ticket=…` request; false when the path is not ours. */
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const url = new URL(req.url ?? "/", "http://standin");
      if (url.pathname !== SOCKET_PATH) return false;
      const ticket = state.connectionTickets.get(url.searchParams.get("ticket") ?? "");
      if (!ticket || ticket.used || state.now() - ticket.createdAt > TICKET_TTL_MS) {
        socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\n\r\n");
        return true;
      }
      ticket.used = true;
      wss.handleUpgrade(req, socket, head, onConnection);
      return true;
    },

    /**
     * Sends one payload in an envelope and waits for its ack. Slash commands and interactions need
     * an open connection now (else `dispatch_failed`, as Slack tells the user); events wait for one
     * and are sent again, with `retry_attempt` counting up, when a connection closes unacked.
     */
    async deliver(type: EnvelopeType, payload: unknown, timeoutMs: number): Promise<SocketAnswer> {
      const started = performance.now();
      const isEvent = type === "events_api";
      let attempt = 0;
      for (;;) {
        const left = Math.max(0, timeoutMs - (performance.now() - started));
        let c = openOnes().at(-1);
        if (!c && isEvent) {
          // Slack's first attempt found nobody: what reaches the app later is a retry.
          c = await connection(left);
          attempt = Math.max(attempt, 1);
        }
        if (!c) {
          if (!isEvent) failures.push({ type, at: state.now(), error: "dispatch_failed" });
          const error = isEvent ? "no connection opened in time" : "dispatch_failed";
          return { status: 0, body: undefined, text: "", ackMs: performance.now() - started, error };
        }
        const { record, ackMs } = await sendOnce(c, type, payload, attempt, left);
        if (record.outcome === "acked") {
          const body =
            record.ackPayload && Object.keys(record.ackPayload).length > 0 ? record.ackPayload : undefined;
          return { status: 200, body, text: body ? JSON.stringify(body) : "", ackMs, error: undefined };
        }
        if (record.outcome === "waiting") record.outcome = "unacked";
        if (!isEvent || attempt >= EVENT_RETRIES)
          return {
            status: 0,
            body: undefined,
            text: "",
            ackMs,
            error: "no ack before the connection closed",
          };
        attempt += 1;
      }
    },

    /**
     * Sends `disconnect` on every open connection. After `warning` Slack keeps using the connection
     * until it refreshes it; after any other reason no new envelope goes to it (acks still count).
     */
    disconnect(reason: DisconnectReason = "refresh_requested"): number {
      const targets = openOnes();
      for (const c of targets) {
        c.record.disconnects.push(reason);
        if (reason !== "warning") c.record.state = "closing";
        send(c, { type: "disconnect", reason, debug_info: { host: DEBUG_INFO.host } });
      }
      return targets.length;
    },

    /** Cuts every connection without a close handshake (a network failure). */
    drop(): void {
      for (const c of live) if (c.record.state !== "closed") c.ws.terminate();
    },

    /** Resolves once a connection is open (the app reconnected), or rejects after `timeoutMs`. */
    async waitForConnection(timeoutMs = 15_000): Promise<ConnectionRecord> {
      const c = await connection(timeoutMs);
      if (!c) throw new Error(`no Socket Mode connection opened within ${timeoutMs} ms`);
      return c.record;
    },

    connections: (): ConnectionRecord[] =>
      live.map((c) => ({ ...c.record, disconnects: [...c.record.disconnects] })),
    envelopes: (): EnvelopeRecord[] => envelopes.map((e) => ({ ...e })),
    dispatchFailures: (): DispatchFailure[] => [...failures],
    /** Forgets envelope and failure records (not the connections, which stay open). */
    clearRecords(): void {
      envelopes.length = 0;
      failures.length = 0;
    },
    async close(): Promise<void> {
      for (const c of live) {
        clearInterval(c.ping);
        c.ws.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

export type SocketSide = ReturnType<typeof createSocketSide>;
