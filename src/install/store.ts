import { randomUUID } from "node:crypto";
import type { Installation, InstallationQuery, InstallationStore } from "@slack/bolt";
import type { KeyringEntry } from "../config.ts";
import { AppError } from "../errors.ts";
import { type Logger, silentLogger } from "../log.ts";
import { seal } from "../store/crypto.ts";
import { createKeyScheme, sealedField, type WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { createSealedValueStore } from "../store/sealed-store.ts";
import { fromSealedRecord, SECRET, type StoredInstallation, toSealedRecord } from "./records.ts";
import { refLabel, refOfInstallation, refOfQuery } from "./refs.ts";

/**
 * Bolt's InstallationStore over Redis: one sealed hash per installation (tokens encrypted with the
 * same envelope as the API keys, bound to the workspace), plus the reads and compare-and-set
 * writes that token rotation and token revocation need.
 */

/** A rotated bot token pair; `expiresAt` in epoch seconds, as Bolt stores it. */
export interface RotatedBotToken {
  token: string;
  refreshToken: string;
  expiresAt: number;
}

export interface InstallationRecords extends InstallationStore {
  /** Throws `installation_not_found` when nothing is stored, `bad_installation` / `decrypt_failed` when unusable. */
  fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation>;
  deleteInstallation(query: InstallationQuery<boolean>): Promise<void>;
  /** The installation and its revision, or null when none is stored. */
  read(ref: WorkspaceRef): Promise<StoredInstallation | null>;
  /** Who installed the app (a Slack user id), read without decrypting anything. */
  installerOf(ref: WorkspaceRef): Promise<string | undefined>;
  /** Whether an installation is stored for the workspace (one EXISTS, nothing decrypted). */
  exists(ref: WorkspaceRef): Promise<boolean>;
  /**
   * Stores a refreshed bot token only if the record is still at `rev` (nobody refreshed or
   * reinstalled meanwhile, and it was not purged). Returns the new revision, or null when not written.
   */
  replaceBotToken(ref: WorkspaceRef, rev: string, next: RotatedBotToken): Promise<string | null>;
  /** Drops the installer's user token when `userIds` names the installer; true when something was dropped. */
  removeUserToken(ref: WorkspaceRef, userIds: readonly string[]): Promise<boolean>;
}

export interface InstallationStoreOptions {
  redis: RedisClient;
  /** Newest first; writes seal with [0]. */
  keyring: readonly KeyringEntry[];
  prefix?: string;
  logger?: Logger;
  clock?: () => Date;
}

// One HSET for token, refresh token, expiry and revision: all or nothing, only at the expected revision.
const REPLACE_IF_REV = `
if redis.call('HGET', KEYS[1], 'rev') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1`;

// Checked in Redis too: a reinstall by someone else between read and delete keeps its token.
const DROP_USER_TOKEN = `
if redis.call('HGET', KEYS[1], 'userId') ~= ARGV[1] then return 0 end
return redis.call('HDEL', KEYS[1], unpack(ARGV, 2))`;

const INSTALLER = /^[A-Z0-9]{1,32}$/;

/**
 * @example
 * const installations = createInstallationStore({ redis, keyring: config.keyring, logger });
 * new App({ ...oauthAppOptions({ slack, installationStore: withTokenRotation(installations, …) }) });
 */
export function createInstallationStore(options: InstallationStoreOptions): InstallationRecords {
  const { redis, keyring } = options;
  const logger = options.logger ?? silentLogger();
  const clock = options.clock ?? (() => new Date());
  const sealed = createSealedValueStore(options);
  const keys = createKeyScheme({ prefix: options.prefix });

  async function read(ref: WorkspaceRef): Promise<StoredInstallation | null> {
    const record = await sealed.get("installation", ref);
    if (!record) return null;
    return fromSealedRecord(record, {
      enterpriseId: ref.enterpriseId,
      teamId: ref.isEnterpriseInstall ? undefined : ref.teamId,
      isEnterpriseInstall: Boolean(ref.isEnterpriseInstall),
    });
  }

  async function installerOf(ref: WorkspaceRef): Promise<string | undefined> {
    const userId = (await sealed.peek("installation", ref))?.fields.userId;
    return userId !== undefined && INSTALLER.test(userId) ? userId : undefined;
  }

  return {
    async storeInstallation(installation) {
      const ref = refOfInstallation(installation);
      await sealed.put(
        "installation",
        ref,
        toSealedRecord(installation, randomUUID(), clock().toISOString()),
      );
      logger.info({ workspace: refLabel(ref), installer: installation.user.id }, "installation stored");
    },

    async fetchInstallation(query) {
      const ref = refOfQuery(query);
      const stored = await read(ref);
      if (!stored) throw new AppError("installation_not_found", `No installation for ${refLabel(ref)}`);
      return stored.installation;
    },

    async deleteInstallation(query) {
      await sealed.remove("installation", refOfQuery(query));
    },

    read,

    installerOf,

    async exists(ref) {
      return (await redis.exists(keys.installation(ref))) === 1;
    },

    async replaceBotToken(ref, rev, next) {
      const nextRev = randomUUID();
      const args = [
        rev,
        "rev",
        nextRev,
        sealedField(SECRET.botToken),
        seal(keyring, next.token, { ref, purpose: SECRET.botToken }),
        sealedField(SECRET.botRefreshToken),
        seal(keyring, next.refreshToken, { ref, purpose: SECRET.botRefreshToken }),
        "botExpiresAt",
        String(next.expiresAt),
      ];
      const written = await redis.eval(REPLACE_IF_REV, 1, keys.installation(ref), ...args);
      return written === 1 ? nextRev : null;
    },

    async removeUserToken(ref, userIds) {
      const installer = await installerOf(ref);
      if (!installer || !userIds.includes(installer)) return false;
      const fields = [sealedField(SECRET.userToken), sealedField(SECRET.userRefreshToken), "userExpiresAt"];
      const dropped = await redis.eval(DROP_USER_TOKEN, 1, keys.installation(ref), installer, ...fields);
      return Number(dropped) > 0;
    },
  };
}
