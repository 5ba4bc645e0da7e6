/** Shapes of the stand-in's Socket Mode side. */

/** An app-level token: it opens Socket Mode connections when it carries `connections:write`. */
export interface AppTokenRecord {
  token: string;
  appId: string;
  scopes: string[];
  revoked: boolean;
}

/** A one-time WebSocket URL handed out by apps.connections.open. */
export interface ConnectionTicket {
  ticket: string;
  appId: string;
  createdAt: number;
  used: boolean;
}

/** What Slack wraps a delivery in, by what it carries. */
export type EnvelopeType = "events_api" | "interactive" | "slash_commands";

/** Reasons Slack gives in a `disconnect` message. */
export type DisconnectReason = "warning" | "refresh_requested" | "link_disabled" | "too_many_websockets";

/** One WebSocket the app opened. */
export interface ConnectionRecord {
  id: number;
  /**
   * `connecting`: hello sent, the app has not yet answered the ping that follows it; `open`: the app
   * has read hello (its pong came back after it), gets envelopes; `closing`: told to disconnect,
   * takes acks until it closes; `closed`.
   */
  state: "connecting" | "open" | "closing" | "closed";
  openedAt: number;
  closedAt: number | undefined;
  /** The `disconnect` reasons sent on it, in order. */
  disconnects: DisconnectReason[];
}

/** One envelope sent to the app and what came back. */
export interface EnvelopeRecord {
  envelopeId: string;
  type: EnvelopeType;
  /** The connection it was sent on. */
  connectionId: number;
  sentAt: number;
  retryAttempt: number;
  /** How many acks arrived for it (Slack counts the first; more would be an app bug). */
  acks: number;
  ackedAt: number | undefined;
  /** The `payload` of the first ack (a modal's response_action, an options list…). */
  ackPayload: Record<string, unknown> | undefined;
  /** `acked`, `waiting`, or `unacked` when its connection closed first. */
  outcome: "waiting" | "acked" | "unacked";
}

/** A delivery that never reached the app: no connection was open (Slack tells the user `dispatch_failed`). */
export interface DispatchFailure {
  type: EnvelopeType;
  at: number;
  error: "dispatch_failed";
}
