import { createHmac, randomBytes } from "node:crypto";

/** Drawn once per process: tags are compared only inside it, never stored, logged or sent. */
const PROCESS_KEY = randomBytes(32);

/**
 * A keyed hash of a secret (HMAC-SHA-256 under a key this process drew at start), for in-memory maps
 * that must tell secrets apart (a client per bot token, a memo per API key) without holding them as
 * keys: a heap dump or a debugger listing the map shows tags that cannot be checked against a guess
 * without the process's key.
 */
export function secretTag(secret: string): string {
  return createHmac("sha256", PROCESS_KEY).update(secret).digest("base64url").slice(0, 22);
}
