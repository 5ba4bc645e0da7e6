import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { StandInState } from "../state.ts";
import type { EnvelopeBook } from "./envelopes.ts";
import type { ConnectionRecord, DisconnectReason } from "./types.ts";

/** Path of the WebSocket URLs apps.connections.open hands out. */
export const SOCKET_PATH = "/link/";
/** A URL from apps.connections.open must be used soon; Slack's are short-lived too. */
export const TICKET_TTL_MS = 30_000;
/** Slack allows an app ten open connections; the eleventh is told `too_many_websockets`. */
export const MAX_CONNECTIONS = 10;

const DEBUG_INFO = { host: "applink-standin", build_number: 1, approximate_connection_time: 18_060 };

export interface Link {
  record: ConnectionRecord;
  send(message: Record<string, unknown>): void;
}

interface Live extends Link {
  ws: WebSocket;
  ping: NodeJS.Timeout;
}

/**
 * The WebSocket connections the app opens: a one-time ticket from apps.connections.open, `hello`,
 * Slack's pings, `disconnect` messages, and which connection is fit to take an envelope.
 */
export function createLinks(o: {
  state: StandInState;
  appId: string;
  book: EnvelopeBook;
  pingIntervalMs?: number;
}) {
  const { state, book } = o;
  const wss = new WebSocketServer({ noServer: true });
  const live: Live[] = [];
  let openWaiters: (() => void)[] = [];
  let nextId = 1;
  const openOnes = () => live.filter((c) => c.record.state === "open");

  function onConnection(ws: WebSocket) {
    const record: ConnectionRecord = {
      id: nextId++,
      state: "connecting",
      openedAt: state.now(),
      closedAt: undefined,
      disconnects: [],
    };
    const c: Live = {
      record,
      ws,
      ping: setInterval(() => ws.ping(), o.pingIntervalMs ?? 10_000),
      send: (message) => ws.send(JSON.stringify(message)),
    };
    c.ping.unref();
    live.push(c);
    ws.on("message", (data) => book.receive(record.id, data));
    ws.on("close", () => {
      clearInterval(c.ping);
      record.state = "closed";
      record.closedAt = state.now();
      book.closed(record.id);
    });
    ws.on("error", () => undefined);
    const current = live.filter((l) => l.record.state === "open" || l.record.state === "connecting");
    if (current.length > MAX_CONNECTIONS) {
      record.disconnects.push("too_many_websockets");
      record.state = "closing";
      c.send({ type: "disconnect", reason: "too_many_websockets", debug_info: { host: DEBUG_INFO.host } });
      return;
    }
    c.send({
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
  async function connection(waitMs: number): Promise<Link | undefined> {
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

  return {
    connection,
    /** The newest open connection now, if any (no waiting: the envelope goes out in this turn). */
    current: (): Link | undefined => openOnes().at(-1),
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
     * Sends `disconnect` on every open connection. After `warning` Slack keeps using the connection
     * until it refreshes it; after any other reason no new envelope goes to it (acks still count).
     */
    disconnect(reason: DisconnectReason = "refresh_requested"): number {
      const targets = openOnes();
      for (const c of targets) {
        c.record.disconnects.push(reason);
        if (reason !== "warning") c.record.state = "closing";
        c.send({ type: "disconnect", reason, debug_info: { host: DEBUG_INFO.host } });
      }
      return targets.length;
    },
    /** Cuts every connection without a close handshake (a network failure). */
    drop(): void {
      for (const c of live) if (c.record.state !== "closed") c.ws.terminate();
    },
    records: (): ConnectionRecord[] =>
      live.map((c) => ({ ...c.record, disconnects: [...c.record.disconnects] })),
    async close(): Promise<void> {
      for (const c of live) {
        clearInterval(c.ping);
        c.ws.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
