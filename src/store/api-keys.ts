import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import type { WorkspaceRef } from "./keys.ts";
import type { RedisClient } from "./redis-client.ts";
import { createSealedValueStore } from "./sealed-store.ts";

/**
 * The per-workspace platform API key: sealed with purpose `api_key` in the workspace's `apikey`
 * hash, beside who saved it and when. The plaintext exists only in this process's memory.
 */

export const API_KEY_PURPOSE = "api_key";
const MAX_KEY_LENGTH = 4096;

export interface ApiKeyMeta {
  /** Slack user id of who connected the key. */
  savedBy: string;
  /** ISO timestamp. */
  savedAt: string;
  /** The analytics endpoint the key was checked against, when not the default. */
  endpoint?: string;
}

export interface ApiKeyStatus {
  /** False when a record exists but its envelope is missing or unreadable. */
  connected: boolean;
  savedBy: string;
  savedAt: string;
  /** The key the envelope is sealed with (null when unreadable); shows pending rotation. */
  keyId: string | null;
  endpoint?: string;
}

export interface ApiKeyStore {
  save(ref: WorkspaceRef, apiKey: string, meta: ApiKeyMeta): Promise<void>;
  /** Throws `decrypt_failed` when the stored key cannot be opened with the keyring. */
  load(ref: WorkspaceRef): Promise<{ apiKey: string; meta: ApiKeyMeta } | null>;
  remove(ref: WorkspaceRef): Promise<boolean>;
  /** `load` for a hash read elsewhere (a delivery reads it with the record, in one round trip). */
  open(ref: WorkspaceRef, hash: Record<string, string>): { apiKey: string; meta: ApiKeyMeta } | null;
  /** Reads without decrypting. */
  status(ref: WorkspaceRef): Promise<ApiKeyStatus | null>;
}

function toMeta(fields: Record<string, string>): ApiKeyMeta {
  const meta: ApiKeyMeta = { savedBy: fields.savedBy ?? "", savedAt: fields.savedAt ?? "" };
  if (fields.endpoint) meta.endpoint = fields.endpoint;
  return meta;
}

/**
 * @example
 * const apiKeys = createApiKeyStore({ redis, keyring: config.keyring, prefix: "insights" });
 * await apiKeys.save(ref, key, { savedBy: "U123", savedAt: now.toISOString() });
 */
export function createApiKeyStore(options: {
  redis: RedisClient;
  keyring: readonly KeyringEntry[];
  prefix?: string;
}): ApiKeyStore {
  const sealed = createSealedValueStore(options);
  return {
    async save(ref, apiKey, meta) {
      // No echo of the value: a mis-pasted key is still a secret.
      if (typeof apiKey !== "string" || apiKey.trim() === "" || apiKey.length > MAX_KEY_LENGTH)
        throw new AppError("invalid_api_key", `The API key must be 1-${MAX_KEY_LENGTH} characters`);
      const fields: Record<string, string> = { savedBy: meta.savedBy, savedAt: meta.savedAt };
      if (meta.endpoint) fields.endpoint = meta.endpoint;
      await sealed.put("apikey", ref, { secrets: { [API_KEY_PURPOSE]: apiKey }, fields });
    },

    async load(ref) {
      const record = await sealed.get("apikey", ref);
      const apiKey = record?.secrets[API_KEY_PURPOSE];
      return record && apiKey !== undefined ? { apiKey, meta: toMeta(record.fields) } : null;
    },

    open(ref, hash) {
      const record = sealed.open(ref, hash);
      const apiKey = record?.secrets[API_KEY_PURPOSE];
      return record && apiKey !== undefined ? { apiKey, meta: toMeta(record.fields) } : null;
    },

    remove: (ref) => sealed.remove("apikey", ref),

    async status(ref) {
      const peek = await sealed.peek("apikey", ref);
      if (!peek) return null;
      const keyId = peek.keyIds[API_KEY_PURPOSE] ?? null;
      return { connected: keyId !== null, ...toMeta(peek.fields), keyId };
    },
  };
}
