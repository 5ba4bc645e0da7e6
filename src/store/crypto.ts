import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import { checkPurpose, type WorkspaceRef, workspaceIds } from "./keys.ts";

/**
 * AES-256-GCM envelopes: `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts). The AAD binds an
 * envelope to its workspace and purpose, so a copy pasted under another workspace or field fails
 * to open. Errors name the key id and purpose, never the plaintext or the key.
 */

export type { KeyringEntry } from "../config.ts";

/** What an envelope is bound to; it is not stored in the envelope but rebuilt by the reader. */
export interface SealContext {
  ref: WorkspaceRef;
  /** `api_key`, `bot_token`, … */
  purpose: string;
}

export type CryptoErrorCode = "decrypt_failed" | "bad_keyring";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** Throws `bad_keyring` unless the keyring is non-empty, with unique well-formed ids and 32-byte keys. */
export function assertKeyring(keyring: readonly KeyringEntry[]): void {
  if (!Array.isArray(keyring) || keyring.length === 0)
    throw new AppError("bad_keyring", "The keyring is empty: at least one 32-byte key is needed");
  const seen = new Set<string>();
  keyring.forEach((entry, i) => {
    if (!entry || typeof entry.id !== "string" || !KEY_ID.test(entry.id))
      throw new AppError(
        "bad_keyring",
        `Keyring entry ${i + 1} has no valid key id (letters, digits, _ or -)`,
      );
    if (seen.has(entry.id)) throw new AppError("bad_keyring", `Keyring repeats key id "${entry.id}"`);
    seen.add(entry.id);
    if (!Buffer.isBuffer(entry.key) || entry.key.length !== KEY_BYTES)
      throw new AppError("bad_keyring", `Keyring key "${entry.id}" must be ${KEY_BYTES} bytes`);
  });
}

/** The AAD string, e.g. `v1|E123|T456|api_key`; org-wide installs use `-` for the team. */
export function aadFor(ctx: SealContext): string {
  const ids = workspaceIds(ctx.ref);
  return `${VERSION}|${ids.enterprise}|${ids.team}|${checkPurpose(ctx.purpose)}`;
}

function decryptFailed(ctx: SealContext, keyId: string | null, reason: string, cause?: unknown) {
  // keyId comes from stored data: only echo it when it has the shape of a real id.
  const shown = keyId !== null && KEY_ID.test(keyId) ? `"${keyId}"` : "(unreadable)";
  return new AppError("decrypt_failed", `Cannot decrypt ${ctx.purpose} sealed with key ${shown}: ${reason}`, {
    cause,
    details: { purpose: ctx.purpose, keyId: keyId !== null && KEY_ID.test(keyId) ? keyId : null },
  });
}

interface Parsed {
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}

function parse(envelope: string): Parsed | null {
  if (typeof envelope !== "string") return null;
  const parts = envelope.split(".");
  if (parts.length !== 5) return null;
  const [version, keyId, iv, tag, ct] = parts as [string, string, string, string, string];
  // Only canonical base64url: otherwise a changed trailing character could decode to the same bytes.
  const canonical = (p: string) => B64URL.test(p) && Buffer.from(p, "base64url").toString("base64url") === p;
  if (version !== VERSION || !KEY_ID.test(keyId) || ![iv, tag, ct].every(canonical)) return null;
  const parsed = {
    keyId,
    iv: Buffer.from(iv, "base64url"),
    tag: Buffer.from(tag, "base64url"),
    ciphertext: Buffer.from(ct, "base64url"),
  };
  return parsed.iv.length === IV_BYTES && parsed.tag.length === TAG_BYTES ? parsed : null;
}

/** The key id an envelope was sealed with, or null when it is not a v1 envelope. No key needed. */
export function envelopeKeyId(envelope: string): string | null {
  return parse(envelope)?.keyId ?? null;
}

/** Encrypts under the newest key (keyring[0]) with a fresh random IV. */
export function seal(keyring: readonly KeyringEntry[], plaintext: string, ctx: SealContext): string {
  assertKeyring(keyring);
  const { id, key } = keyring[0] as KeyringEntry;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aadFor(ctx), "utf8"));
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, id, iv.toString("base64url"), tag.toString("base64url"), ct.toString("base64url")].join(
    ".",
  );
}

/** Decrypts with the key named in the envelope. Throws `decrypt_failed` on any mismatch. */
export function open(keyring: readonly KeyringEntry[], envelope: string, ctx: SealContext): string {
  assertKeyring(keyring);
  const aad = aadFor(ctx);
  const parsed = parse(envelope);
  if (!parsed) throw decryptFailed(ctx, envelopeKeyIdLoose(envelope), "not a v1 envelope");
  const entry = keyring.find((k) => k.id === parsed.keyId);
  if (!entry) throw decryptFailed(ctx, parsed.keyId, "that key id is not in the keyring (ENCRYPTION_KEYS)");
  try {
    const decipher = createDecipheriv("aes-256-gcm", entry.key, parsed.iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(aad, "utf8"));
    decipher.setAuthTag(parsed.tag);
    return Buffer.concat([decipher.update(parsed.ciphertext), decipher.final()]).toString("utf8");
  } catch (err) {
    // Node's message here is generic ("Unsupported state or unable to authenticate data"); keep it as cause.
    throw decryptFailed(
      ctx,
      parsed.keyId,
      "authentication failed (wrong key, workspace or purpose, or tampered)",
      err,
    );
  }
}

function envelopeKeyIdLoose(envelope: unknown): string | null {
  return typeof envelope === "string" ? (envelope.split(".")[1] ?? null) : null;
}

/** True when the envelope was not sealed with the newest key. Throws `decrypt_failed` if unreadable. */
export function needsRotation(envelope: string, keyring: readonly KeyringEntry[]): boolean {
  assertKeyring(keyring);
  const keyId = envelopeKeyId(envelope);
  if (keyId === null) throw new AppError("decrypt_failed", "Cannot read the key id: not a v1 envelope");
  return keyId !== keyring[0]?.id;
}

/**
 * A fresh random keyring for the demo and tests, newest first (`kN`, …, `k1`).
 *
 * @example
 * const keyring = generateKeyring(); // [{ id: "k1", key: <32 random bytes> }]
 */
export function generateKeyring(count = 1): KeyringEntry[] {
  return Array.from({ length: count }, (_, i) => ({ id: `k${count - i}`, key: randomBytes(KEY_BYTES) }));
}

/** The `ENCRYPTION_KEYS` form of a keyring (`k2:base64,k1:base64`), for the demo and spawned tests. */
export function formatKeyring(keyring: readonly KeyringEntry[]): string {
  return keyring.map((k) => `${k.id}:${k.key.toString("base64")}`).join(",");
}
