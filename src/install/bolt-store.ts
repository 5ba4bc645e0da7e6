import type { Installation, InstallationStore } from "@slack/bolt";
import { AppError } from "../errors.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { refLabel, refOfInstallation, refOfQuery } from "./refs.ts";
import type { TokenRotation } from "./rotation.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * The InstallationStore handed to Bolt. Bolt's InstallProvider refreshes expiring tokens itself
 * whenever a fetched installation carries a refresh token, with no lock across processes; so
 * fetches go through the locked rotation and come back without refresh tokens, which leaves
 * Bolt's own refresh switched off. Bolt fetches on every request it routes: the rotation's `recent`
 * answers from this process's memory for a few seconds at a time, so a modal's or a type-ahead's
 * ack does not wait on Redis for it.
 */

/** The installation as Bolt should see it: current tokens, no refresh tokens. */
export function withoutRefreshTokens(installation: Installation): Installation {
  const { bot, user } = installation;
  const { refreshToken: _userRefresh, expiresAt: _userExpiry, ...plainUser } = user;
  const out: Installation = { ...installation, user: plainUser };
  if (bot) {
    const { refreshToken: _botRefresh, ...plainBot } = bot;
    out.bot = plainBot;
  }
  return out;
}

/**
 * @example
 * const installationStore = withTokenRotation(records, rotation);
 * new App({ ...oauthAppOptions({ slack, installationStore }) });
 */
export function withTokenRotation(
  records: InstallationRecords,
  rotation: TokenRotation,
  /** Drops what this process remembers of a workspace's installation once it is stored or deleted. */
  forget: (ref: WorkspaceRef) => void = rotation.forget,
): InstallationStore {
  return {
    async storeInstallation(installation) {
      await records.storeInstallation(installation);
      forget(refOfInstallation(installation));
    },
    async fetchInstallation(query) {
      const ref = refOfQuery(query);
      const installation = await rotation.recent(ref);
      if (!installation) throw new AppError("installation_not_found", `No installation for ${refLabel(ref)}`);
      return withoutRefreshTokens(installation);
    },
    async deleteInstallation(query) {
      await records.deleteInstallation(query);
      forget(refOfQuery(query));
    },
  };
}
