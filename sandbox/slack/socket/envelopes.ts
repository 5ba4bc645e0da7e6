import { performance } from "node:perf_hooks";
import { randomHex } from "../ids.ts";
import type { StandInState } from "../state.ts";
import type { DispatchFailure, EnvelopeRecord, EnvelopeType } from "./types.ts";

/**
 * Every envelope sent over Socket Mode and what came back: acks are matched by `envelope_id` on the
 * connection the envelope went out on (an ack elsewhere is not an ack), the first one counts.
 */
export function createEnvelopeBook(state: StandInState) {
  const envelopes: EnvelopeRecord[] = [];
  const failures: DispatchFailure[] = [];
  const waiters = new Map<string, () => void>();

  return {
    /** Records a new envelope on `connectionId`; `settled` resolves on its ack, its connection's close, or the timeout. */
    open(type: EnvelopeType, connectionId: number, attempt: number, timeoutMs: number) {
      const record: EnvelopeRecord = {
        envelopeId: `${randomHex(4)}-${randomHex(2)}-${randomHex(2)}-${randomHex(2)}-${randomHex(6)}`,
        type,
        connectionId,
        sentAt: state.now(),
        retryAttempt: attempt,
        acks: 0,
        ackedAt: undefined,
        ackPayload: undefined,
        outcome: "waiting",
      };
      envelopes.push(record);
      const started = performance.now();
      const settled = new Promise<number>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(record.envelopeId);
          resolve(performance.now() - started);
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.set(record.envelopeId, done);
      });
      return { record, settled };
    },

    /** A message from the app on `connectionId`: an ack when it names one of that connection's envelopes. */
    receive(connectionId: number, data: unknown): void {
      let message: { envelope_id?: unknown; payload?: unknown };
      try {
        message = JSON.parse(String(data)) as typeof message;
      } catch {
        return;
      }
      const env = envelopes.find(
        (e) => e.envelopeId === message.envelope_id && e.connectionId === connectionId,
      );
      if (!env) return;
      env.acks += 1;
      if (env.acks > 1) return;
      env.ackedAt = state.now();
      env.outcome = "acked";
      const payload = message.payload;
      env.ackPayload =
        typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
      waiters.get(env.envelopeId)?.();
    },

    /** The connection closed: its envelopes still waiting will never be acked. */
    closed(connectionId: number): void {
      for (const e of envelopes)
        if (e.connectionId === connectionId && e.outcome === "waiting") {
          e.outcome = "unacked";
          waiters.get(e.envelopeId)?.();
        }
    },

    failed(type: EnvelopeType): void {
      failures.push({ type, at: state.now(), error: "dispatch_failed" });
    },
    list: (): EnvelopeRecord[] => envelopes.map((e) => ({ ...e })),
    failures: (): DispatchFailure[] => [...failures],
    clear(): void {
      envelopes.length = 0;
      failures.length = 0;
    },
  };
}

export type EnvelopeBook = ReturnType<typeof createEnvelopeBook>;
