import type { Installation, InstallationStore } from "@slack/bolt";
import { AppError } from "../errors.ts";
import { refLabel, refOfQuery } from "./refs.ts";
import type { TokenRotation } from "./rotation.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * The InstallationStore handed to Bolt. Bolt's InstallProvider refreshes expiring tokens itself
 * whenever a fetched installation carries a refresh token, with no lock across processes; so
 * fetches go through the locked rotation and come back without refresh tokens, which leaves
 * Bolt's own refresh switched off.
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
export function withTokenRotation(records: InstallationRecords, rotation: TokenRotation): InstallationStore {
  return {
    storeInstallation: (installation) => records.storeInstallation(installation),
    async fetchInstallation(query) {
      const ref = refOfQuery(query);
      const installation = await rotation.current(ref);
      if (!installation) throw new AppError("installation_not_found", `No installation for ${refLabel(ref)}`);
      return withoutRefreshTokens(installation);
    },
    deleteInstallation: (query) => records.deleteInstallation(query),
  };
}
