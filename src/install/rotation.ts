import type { Installation } from "@slack/bolt";
import { createHeldReads } from "../bounded-map.ts";
import { AppError } from "../errors.ts";
import { type Logger, silentLogger } from "../log.ts";
import { createKeyScheme, type WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { sleep, tryLock } from "./lock.ts";
import type { StoredInstallation } from "./records.ts";
import type { RefreshBotToken } from "./refresh.ts";
import { refLabel } from "./refs.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * Bot token rotation shared by every process. Whoever sees the token close to expiry takes a
 * per-workspace Redis lock and refreshes; the others wait and read what it stored. The write is a
 * compare-and-set on the record's revision, so a slow refresher whose lock expired, a reinstall
 * or an uninstall that happened meanwhile is never overwritten with an older token.
 */

export interface TokenRotationOptions {
  records: InstallationRecords;
  redis: RedisClient;
  prefix?: string;
  refresh: RefreshBotToken;
  /** Refresh when the token expires within this many seconds (default 7,200, as Bolt). */
  refreshWithinSec?: number;
  /** Lock lifetime; longer than one refresh call (default 15 s). */
  lockTtlMs?: number;
  /** How long a process waits for another's refresh before deciding alone (default 10 s). */
  waitMs?: number;
  pollMs?: number;
  /**
   * How long `recent` hands out an installation it read without reading it again (default 30 s);
   * never past the point where its token is due for a refresh.
   */
  holdMs?: number;
  /** Token expiry is judged by this clock (tests move it). */
  clock?: () => Date;
  logger?: Logger;
}

export interface TokenRotation {
  /** The installation with a bot token good for at least `refreshWithinSec`, refreshed if needed; null when none. */
  current(ref: WorkspaceRef): Promise<Installation | null>;
  /** The workspace's bot token, refreshed if needed. Throws `installation_not_found`, `token_expired`. */
  botToken(ref: WorkspaceRef): Promise<string>;
  /**
   * `current`, remembered in this process for `holdMs`: what Bolt's authorize reads on every request
   * it routes, which would otherwise cost the acking path a Redis read and a decryption each time.
   * A workspace not installed is not remembered.
   */
  recent(ref: WorkspaceRef): Promise<Installation | null>;
  /** Drops what `recent` holds for the workspace (this process stored or removed its installation). */
  forget(ref: WorkspaceRef): void;
}

/** A still-valid token is used this close to its end rather than failing the request. */
const LAST_USABLE_SEC = 60;
const LOCK_NAME = "bot-token-refresh";

/**
 * @example
 * const rotation = createTokenRotation({ records, redis, refresh: createTokenRefresher({ … }) });
 * const token = await rotation.botToken(ref); // worker side: post a scheduled digest
 */
export function createTokenRotation(options: TokenRotationOptions): TokenRotation {
  const { records, redis, refresh } = options;
  const keys = createKeyScheme({ prefix: options.prefix });
  const logger = options.logger ?? silentLogger();
  const clock = options.clock ?? (() => new Date());
  const within = options.refreshWithinSec ?? 7_200;
  const lockTtlMs = options.lockTtlMs ?? 15_000;
  const waitMs = options.waitMs ?? 10_000;
  const pollMs = options.pollMs ?? 50;
  const nowSec = () => Math.floor(clock().getTime() / 1000);
  const holdMs = options.holdMs ?? 30_000;
  const held = createHeldReads<Installation | null>(10_000, () => clock().getTime());

  const needsRefresh = ({ installation: { bot } }: StoredInstallation) =>
    Boolean(bot?.refreshToken) && bot?.expiresAt !== undefined && bot.expiresAt - nowSec() <= within;

  /** After a failed or abandoned refresh: the old token while it still works, else `token_expired`. */
  function usableOrThrow(ref: WorkspaceRef, stored: StoredInstallation, cause?: unknown): Installation {
    const expiresAt = stored.installation.bot?.expiresAt ?? 0;
    if (expiresAt - nowSec() > LAST_USABLE_SEC) {
      logger.warn(
        { workspace: refLabel(ref), expiresAt },
        "bot token not refreshed yet; using the current one",
      );
      return stored.installation;
    }
    throw new AppError("token_expired", `The bot token of ${refLabel(ref)} expired and was not refreshed`, {
      cause,
    });
  }

  async function refreshNow(ref: WorkspaceRef, stored: StoredInstallation): Promise<Installation | null> {
    const bot = stored.installation.bot;
    if (!bot?.refreshToken) return stored.installation;
    let next: Awaited<ReturnType<RefreshBotToken>>;
    try {
      next = await refresh(bot.refreshToken);
    } catch (err) {
      // Another process may have used the refresh token (its lock outlived); its result is stored.
      const again = await records.read(ref);
      if (!again || again.rev !== stored.rev) return again?.installation ?? null;
      return usableOrThrow(ref, stored, err);
    }
    const rotated = {
      token: next.accessToken,
      refreshToken: next.refreshToken,
      expiresAt: nowSec() + next.expiresInSec,
    };
    if (await records.replaceBotToken(ref, stored.rev, rotated)) {
      logger.info({ workspace: refLabel(ref), expiresAt: rotated.expiresAt }, "bot token refreshed");
      return { ...stored.installation, bot: { ...bot, ...rotated } };
    }
    // Reinstalled, refreshed elsewhere or purged meanwhile: what is stored now wins.
    logger.info({ workspace: refLabel(ref) }, "refreshed bot token discarded: the record changed meanwhile");
    return (await records.read(ref))?.installation ?? null;
  }

  async function current(ref: WorkspaceRef): Promise<Installation | null> {
    let stored = await records.read(ref);
    if (!stored || !needsRefresh(stored)) return stored?.installation ?? null;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const lock = await tryLock(redis, keys.lock(ref, LOCK_NAME), lockTtlMs);
      if (lock) {
        try {
          // Re-read under the lock: the previous holder may have just stored a fresh token.
          stored = await records.read(ref);
          if (!stored || !needsRefresh(stored)) return stored?.installation ?? null;
          return await refreshNow(ref, stored);
        } finally {
          await lock.release();
        }
      }
      await sleep(pollMs);
      stored = await records.read(ref);
      if (!stored || !needsRefresh(stored)) return stored?.installation ?? null;
      if (Date.now() >= deadline) return usableOrThrow(ref, stored);
    }
  }

  return {
    current,
    recent: (ref) =>
      held.read(
        refLabel(ref),
        () => current(ref),
        (installation, at) => {
          // Not held when missing; else until its token is due for a refresh at the latest (current()
          // refreshes it then).
          if (!installation) return at;
          const expiresAt = installation.bot?.refreshToken ? installation.bot.expiresAt : undefined;
          return Math.min(
            at + holdMs,
            expiresAt === undefined ? Number.POSITIVE_INFINITY : (expiresAt - within) * 1000,
          );
        },
      ),
    forget: (ref) => held.forget(refLabel(ref)),
    async botToken(ref) {
      const token = (await current(ref))?.bot?.token;
      if (!token) throw new AppError("installation_not_found", `No bot token for ${refLabel(ref)}`);
      return token;
    },
  };
}
