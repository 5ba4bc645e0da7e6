import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Operator authentication for /ops: the shared OPS_TOKEN, sent by scripts as a bearer token, or
 * typed once into the login form, which answers with a session cookie signed by a key derived from
 * the token (so changing OPS_TOKEN signs everyone out). Sessions carry the operator's name for the
 * audit log, an expiry and a nonce that the CSRF token of every form is bound to. Nothing here is
 * stored server-side: any web process (WEB_CONCURRENCY, several hosts) checks any session.
 */

/** Session cookie name; its path is /ops, so no other route ever receives it. */
export const SESSION_COOKIE = "ops_session";

/** How long a browser session lasts [8 h]. */
export const SESSION_MS = 8 * 3_600_000;

/** Who is signed in. */
export interface OpsSession {
  /** The operator's name as typed at login (for the audit log); letters, digits, space, . _ @ - */
  operator: string;
  /** Epoch ms after which the session is refused. */
  exp: number;
  /** Random; the CSRF token is its keyed hash. */
  nonce: string;
}

const sha256 = (s: string) => createHash("sha256").update(s).digest();

/** Compares in time independent of where they differ and of their lengths (both hashed first). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(sha256(a), sha256(b));
}

/** The session-signing key: the token's own HMAC, so the token itself never signs anything. */
const keyOf = (token: string) => createHmac("sha256", token).update("insights-digest ops session").digest();

const mac = (key: Buffer, what: string) => createHmac("sha256", key).update(what).digest("base64url");

/** An operator name fit for a log line and a page: trimmed, at most 60 safe characters, or null. */
export function operatorName(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const name = raw.trim().slice(0, 60);
  return /^[\p{L}\p{N} ._@-]{1,60}$/u.test(name) ? name : null;
}

export function createOpsAuth(token: string, clock: () => number = Date.now) {
  const key = keyOf(token);
  return {
    /** Whether an `Authorization` header carries the token (`Bearer <token>`). */
    bearer(header: string | undefined): boolean {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
      return m !== null && sameSecret(m[1] as string, token);
    },
    /** Whether a token typed into the login form is the right one. */
    matches(typed: string): boolean {
      return sameSecret(typed, token);
    },
    /** A new session's cookie value. */
    issue(operator: string): { value: string; session: OpsSession } {
      const session = { operator, exp: clock() + SESSION_MS, nonce: randomBytes(16).toString("base64url") };
      const body = Buffer.from(JSON.stringify(session)).toString("base64url");
      return { value: `${body}.${mac(key, body)}`, session };
    },
    /** The session a cookie value holds, if it is ours, intact and not expired. */
    verify(value: string | undefined): OpsSession | null {
      if (!value) return null;
      const dot = value.indexOf(".");
      if (dot <= 0) return null;
      const body = value.slice(0, dot);
      if (!sameSecret(value.slice(dot + 1), mac(key, body))) return null;
      try {
        const s = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<OpsSession>;
        if (typeof s.exp !== "number" || s.exp <= clock() || typeof s.nonce !== "string") return null;
        const operator = operatorName(s.operator);
        return operator ? { operator, exp: s.exp, nonce: s.nonce } : null;
      } catch {
        return null;
      }
    },
    /** The CSRF token of a session's forms. */
    csrf(session: OpsSession): string {
      return mac(key, `csrf|${session.nonce}`);
    },
    /** Whether a form's CSRF token belongs to this session. */
    csrfOk(session: OpsSession, sent: unknown): boolean {
      return typeof sent === "string" && sameSecret(sent, mac(key, `csrf|${session.nonce}`));
    },
  };
}

export type OpsAuth = ReturnType<typeof createOpsAuth>;

/** The cookie header that sets (or, with `clear`, removes) the session. */
export function sessionCookie(value: string, o: { secure: boolean; clear?: boolean }): string {
  const parts = [
    `${SESSION_COOKIE}=${o.clear ? "" : value}`,
    "Path=/ops",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${o.clear ? 0 : Math.floor(SESSION_MS / 1000)}`,
  ];
  if (o.secure) parts.push("Secure");
  return parts.join("; ");
}

/** One cookie's value from a `Cookie` header. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
