import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Fault } from "./faults.ts";
import { send, sendErrors } from "./http.ts";

/** A reply cut off mid-way, like a proxy dropping the rest of a large answer. */
export const DEFAULT_MALFORMED_BODY = '{"data":{"insights":{"dailyMetric":[{"timeStamp":"2026-01-0';

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Answers a request with a fault instead of GraphQL. `hang` answers nothing: the caller keeps the
 * response open until the client gives up or the emulator closes.
 */
export function replyWithFault(res: ServerResponse, fault: Exclude<Fault, { kind: "latency" }>): void {
  switch (fault.kind) {
    case "status": {
      const text = STATUS_CODES[fault.status] ?? "Error";
      if (fault.body === undefined) {
        sendErrors(res, fault.status, `${fault.status} ${text} (injected fault)`);
      } else {
        const type = looksLikeJson(fault.body)
          ? "application/json; charset=utf-8"
          : "text/plain; charset=utf-8";
        send(res, fault.status, fault.body, { "content-type": type });
      }
      return;
    }
    case "rate_limit":
      sendErrors(res, 429, "Too many requests (injected fault).", {
        code: "RATE_LIMITED",
        headers: { "retry-after": String(fault.retryAfterSeconds) },
      });
      return;
    case "malformed":
      send(res, 200, fault.body ?? DEFAULT_MALFORMED_BODY, {
        "content-type": "application/json; charset=utf-8",
      });
      return;
    case "reply":
      send(res, 200, JSON.stringify(fault.body), { "content-type": "application/json; charset=utf-8" });
      return;
    case "hang":
      return;
  }
}
