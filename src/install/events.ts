import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from "@slack/bolt";
import type { Redis } from "ioredis";
import { isAppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { workspaceOf } from "../slack/workspace.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import { purgeWorkspace, type RemoveSchedulers } from "./purge.ts";
import { refLabel } from "./refs.ts";
import type { InstallationRecords } from "./store.ts";

/**
 * Leaving: `app_uninstalled` and `tokens_revoked` (bot) purge the workspace; `team_access_revoked`
 * (an org app losing workspaces of its Enterprise Grid org) purges each of those workspaces. Slack
 * may send them in any order, and redeliver any; purging is idempotent, so every combination ends
 * the same. Bolt skips authorize for the first two, so they work after the installation is gone.
 */

export interface LifecycleDeps {
  redis: Redis;
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

/**
 * `team_access_revoked`: the org-wide install can no longer act in these workspaces, so each one's
 * own data (an install of its own, its key, its subscriptions and schedulers) goes as on a
 * `tokens_revoked`. The org's shared record stays for the workspaces it still reaches. The event
 * names no workspace of its own (`team_id: null`); the enterprise comes from its authorization.
 */
export function teamAccessRevoked(deps: LifecycleDeps) {
  return async ({ context, event }: EventArgs<"team_access_revoked">): Promise<void> => {
    const enterpriseId = context.enterpriseId;
    if (!enterpriseId) {
      deps.logger.warn(
        { teams: event.team_ids.length },
        "team_access_revoked without an enterprise; ignored",
      );
      return;
    }
    for (const teamId of event.team_ids)
      await purge(deps, { enterpriseId, teamId, isEnterpriseInstall: false }, "team_access_revoked");
  };
}

/** Registers the lifecycle listeners. */
export function registerLifecycleEvents(app: App, deps: LifecycleDeps): void {
  app.event("app_uninstalled", appUninstalled(deps));
  app.event("tokens_revoked", tokensRevoked(deps));
  app.event("team_access_revoked", teamAccessRevoked(deps));
}
