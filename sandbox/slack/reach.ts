import type { FunctionExecution } from "./functions/types.ts";
import type { SocketSide } from "./socket/server.ts";
import type { ConnectionRecord, DisconnectReason, DispatchFailure, EnvelopeRecord } from "./socket/types.ts";
import type { StandInState } from "./state.ts";
import type { LinkShare } from "./unfurl/types.ts";

/** The default app-level token (`xapp-…`, with `connections:write`) the stand-in accepts. */
export const DEMO_APP_TOKEN = "xapp-1-A0INSIGHTS-0000000001-standin";

/** Seeds an app-level token; the stand-in re-adds it on every reset. */
export function addAppToken(
  state: StandInState,
  token: string,
  appId: string,
  scopes = ["connections:write"],
): void {
  state.appTokens.set(token, { token, appId, scopes, revoked: false });
}

/**
 * Levers and records for Socket Mode, custom steps and unfurls: what tests assert on when the app
 * is reached by a WebSocket, runs as a workflow step, or answers links.
 */
export function createReachControls(state: StandInState, socket: SocketSide) {
  return {
    /** Sends `disconnect` (default `refresh_requested`) on every open connection; returns how many. */
    disconnectSocket: (reason?: DisconnectReason): number => socket.disconnect(reason),
    /** Cuts every Socket Mode connection without a close handshake. */
    dropSocket: (): void => socket.drop(),
    /** Resolves with the next open connection (after a reconnect, the new one). */
    waitForSocket: (timeoutMs?: number): Promise<ConnectionRecord> => socket.waitForConnection(timeoutMs),
    socketConnections: (): ConnectionRecord[] => socket.connections(),
    /** Every envelope sent over Socket Mode, with its acks. */
    envelopes: (): EnvelopeRecord[] => socket.envelopes(),
    /** Slash commands and interactions that found no open connection (Slack: `dispatch_failed`). */
    dispatchFailures: (): DispatchFailure[] => socket.dispatchFailures(),
    /** Revokes (or restores) the app-level token: apps.connections.open then answers invalid_auth. */
    setAppTokenRevoked(token: string, revoked: boolean): void {
      const rec = state.appTokens.get(token);
      if (rec) rec.revoked = revoked;
    },
    /** A custom step's run: status, outputs or error, and any completion Slack refused. */
    stepExecution: (id: string): FunctionExecution | undefined => {
      const run = state.functionExecutions.get(id);
      return run ? { ...run, refusals: [...run.refusals] } : undefined;
    },
    /** A message whose links reached the app, with the unfurls attached to it so far. */
    linkShare: (unfurlId: string): LinkShare | undefined => state.linkShares.get(unfurlId),
  };
}

export type ReachControls = ReturnType<typeof createReachControls>;
