import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import { assertKeyring, envelopeKeyId, open, seal } from "./crypto.ts";
import {
  checkPurpose,
  createKeyScheme,
  SEALED_FIELD_PREFIX,
  type SealedKind,
  sealedField,
  type WorkspaceRef,
} from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";

/**
 * One Redis hash per (workspace, kind) holding plain fields beside sealed secrets
 * (`enc:<purpose>` → envelope). Used by the API key store and the installation store; rotation
 * finds every secret through the same field prefix.
 */

/** Secrets by purpose (plaintext) and plain, non-secret fields. */
export interface SealedRecord {
  secrets: Record<string, string>;
  fields: Record<string, string>;
}

/** What can be read without a key: plain fields and the key id of each sealed secret. */
export interface SealedPeek {
  fields: Record<string, string>;
  /** Purpose → key id, or null when the stored envelope is unreadable. */
  keyIds: Record<string, string | null>;
}

export interface SealedValueStore {
  /** Replaces the whole hash in one MULTI, sealing each secret under the newest key. */
  put(kind: SealedKind, ref: WorkspaceRef, record: SealedRecord): Promise<void>;
  /** Opens every sealed field; null when nothing is stored. Throws `decrypt_failed`. */
  get(kind: SealedKind, ref: WorkspaceRef): Promise<SealedRecord | null>;
  /** Opens a hash read elsewhere (e.g. in a script with other keys); null when it is empty. */
  open(ref: WorkspaceRef, hash: Record<string, string>): SealedRecord | null;
  /** Reads without decrypting; null when nothing is stored. */
  peek(kind: SealedKind, ref: WorkspaceRef): Promise<SealedPeek | null>;
  /** Deletes the hash; true when something was deleted. */
  remove(kind: SealedKind, ref: WorkspaceRef): Promise<boolean>;
}

export interface SealedValueStoreOptions {
  redis: RedisClient;
  /** Newest first; writes use [0]. */
  keyring: readonly KeyringEntry[];
  /** Key prefix (default "insights"). */
  prefix?: string;
}

/** Splits a stored hash into plain fields and envelopes by purpose. */
export function splitSealedHash(hash: Record<string, string>): {
  fields: Record<string, string>;
  envelopes: Record<string, string>;
} {
  const fields: Record<string, string> = {};
  const envelopes: Record<string, string> = {};
  for (const [name, value] of Object.entries(hash)) {
    if (name.startsWith(SEALED_FIELD_PREFIX)) envelopes[name.slice(SEALED_FIELD_PREFIX.length)] = value;
    else fields[name] = value;
  }
  return { fields, envelopes };
}

/**
 * @example
 * const sealed = createSealedValueStore({ redis, keyring });
 * await sealed.put("installation", ref, { secrets: { bot_token: "xoxb-…" }, fields: { botUserId: "U1" } });
 */
export function createSealedValueStore(options: SealedValueStoreOptions): SealedValueStore {
  const { redis, keyring } = options;
  assertKeyring(keyring);
  const keys = createKeyScheme({ prefix: options.prefix });

  function openHash(ref: WorkspaceRef, hash: Record<string, string>): SealedRecord | null {
    if (Object.keys(hash).length === 0) return null;
    const { fields, envelopes } = splitSealedHash(hash);
    const secrets: Record<string, string> = {};
    for (const [purpose, envelope] of Object.entries(envelopes)) {
      secrets[purpose] = open(keyring, envelope, { ref, purpose });
    }
    return { secrets, fields };
  }

  return {
    async put(kind, ref, record) {
      const key = keys.sealed(kind, ref);
      const hash: Record<string, string> = {};
      for (const [name, value] of Object.entries(record.fields)) {
        if (name.startsWith(SEALED_FIELD_PREFIX))
          throw new AppError(
            "invalid_field",
            `Plain field names may not start with "${SEALED_FIELD_PREFIX}"`,
          );
        hash[name] = value;
      }
      for (const [purpose, plaintext] of Object.entries(record.secrets)) {
        checkPurpose(purpose);
        hash[sealedField(purpose)] = seal(keyring, plaintext, { ref, purpose });
      }
      if (Object.keys(hash).length === 0) throw new AppError("invalid_field", "Nothing to store");
      const results = await redis.multi().del(key).hset(key, hash).exec();
      const failed = results?.find(([err]) => err);
      if (!results || failed) {
        throw new AppError("store_failed", `Could not write ${kind} for the workspace`, {
          cause: failed?.[0],
        });
      }
    },

    async get(kind, ref) {
      return openHash(ref, await redis.hgetall(keys.sealed(kind, ref)));
    },

    open: (ref, hash) => openHash(ref, hash),

    async peek(kind, ref) {
      const hash = await redis.hgetall(keys.sealed(kind, ref));
      if (Object.keys(hash).length === 0) return null;
      const { fields, envelopes } = splitSealedHash(hash);
      const keyIds = Object.fromEntries(Object.entries(envelopes).map(([p, e]) => [p, envelopeKeyId(e)]));
      return { fields, keyIds };
    },

    async remove(kind, ref) {
      return (await redis.del(keys.sealed(kind, ref))) > 0;
    },
  };
}
