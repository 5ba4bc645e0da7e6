import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from "@slack/bolt";
import { isAppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { workspaceOf } from "../slack/workspace.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { purgeWorkspace, type RemoveSchedulers } from "./purge.ts";
import { refLabel } from "./refs.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * Leaving: `app_uninstalled` and `tokens_revoked` (bot) purge the workspace. Slack may send both,
 * in either order, and redeliver either; purging is idempotent, so every combination ends the same.
 * Bolt skips authorize for these two events, so they work after the installation is gone.
 */

export interface LifecycleDeps {
  redis: RedisClient;
  keys: KeyScheme;
  records: Pick<InstallationRecords, "removeUserToken">;
  removeSchedulers?: RemoveSchedulers;
  logger: Logger;
}

type EventArgs<T extends string> = SlackEventMiddlewareArgs<T> & AllMiddlewareArgs;

async function purge(deps: LifecycleDeps, ref: WorkspaceRef, reason: string): Promise<void> {
  const log = deps.logger.child({ workspace: refLabel(ref), reason });
  try {
    await purgeWorkspace({ ...deps, ref, logger: log });
  } catch (err) {
    // Nothing to tell anyone in Slack: the app is gone from the workspace. Log for the operator.
    log.error({ code: isAppError(err) ? err.code : "unexpected", err }, "workspace purge failed");
  }
}

/** `app_uninstalled`: purge the workspace (or, for an org-wide install, the enterprise). */
export function appUninstalled(deps: LifecycleDeps) {
  return async ({ context }: EventArgs<"app_uninstalled">): Promise<void> => {
    await purge(deps, workspaceOf(context), "app_uninstalled");
  };
}

/**
 * `tokens_revoked`: revoked bot tokens mean the app can no longer act there, so purge as for an
 * uninstall. Revoked user tokens only drop the installer's user token; the rest stays.
 */
export function tokensRevoked(deps: LifecycleDeps) {
  return async ({ context, event }: EventArgs<"tokens_revoked">): Promise<void> => {
    const ref = workspaceOf(context);
    const bots = event.tokens.bot ?? [];
    const users = event.tokens.oauth ?? [];
    if (bots.length > 0) return purge(deps, ref, "tokens_revoked");
    if (users.length === 0) return;
    try {
      const dropped = await deps.records.removeUserToken(ref, users);
      deps.logger.info({ workspace: refLabel(ref), dropped }, "user tokens revoked");
    } catch (err) {
      deps.logger.error({ workspace: refLabel(ref), err }, "dropping a revoked user token failed");
    }
  };
}

/** Registers both lifecycle listeners. */
export function registerLifecycleEvents(app: App, deps: LifecycleDeps): void {
  app.event("app_uninstalled", appUninstalled(deps));
  app.event("tokens_revoked", tokensRevoked(deps));
}
