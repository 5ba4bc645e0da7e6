import { createHmac } from "node:crypto";

/**
 * How a request is signed: `ok` as Slack does; `none` without signature headers; `bad` with a
 * signature made with the wrong secret; `old` correctly signed but 6 minutes old (a replay, which
 * Bolt refuses past 5 minutes).
 */
export type SignMode = "ok" | "none" | "bad" | "old";

/** Slack's v0 scheme: `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the signing secret. */
export function slackSignature(secret: string, timestampSec: number, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestampSec}:${body}`).digest("hex")}`;
}

export const REPLAY_AGE_SEC = 6 * 60;

/**
 * The signature headers for one request. Uses the real clock on purpose: the app checks timestamps
 * against its own clock, whatever clock the stand-in's state runs on.
 */
export function signatureHeaders(secret: string, body: string, mode: SignMode): Record<string, string> {
  if (mode === "none") return {};
  const now = Math.floor(Date.now() / 1000);
  const ts = mode === "old" ? now - REPLAY_AGE_SEC : now;
  const key = mode === "bad" ? `${secret}-not-the-secret` : secret;
  return {
    "X-Slack-Request-Timestamp": String(ts),
    "X-Slack-Signature": slackSignature(key, ts, body),
  };
}
