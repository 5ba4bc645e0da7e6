import { isAppError } from "../../../errors.ts";
import { type LifecycleDeps, purgeWorkspace } from "../../../install/purge.ts";
import { refLabel } from "../../../install/refs.ts";
import type { WorkspaceRef } from "../../../store/keys.ts";
import { type EventEntry, onEvent } from "../../frame/index.ts";

/**
 * Leaving: `app_uninstalled` and `tokens_revoked` (bot) purge the workspace; `team_access_revoked`
 * (an org app losing workspaces of its Enterprise Grid org) purges each of those workspaces. Slack
 * may send them in any order, and redeliver any; purging is idempotent, so every combination ends
 * the same. Bolt skips authorize for the first two, so they work after the installation is gone.
 */

async function purge(deps: LifecycleDeps, ref: WorkspaceRef, reason: string): Promise<void> {
  const log = deps.logger.child({ workspace: refLabel(ref), reason });
  try {
    await purgeWorkspace({ ...deps, ref, logger: log });
  } catch (err) {
    // Nothing to tell anyone in Slack: the app is gone from the workspace. Log for the operator.
    log.error({ code: isAppError(err) ? err.code : "unexpected", err }, "workspace purge failed");
  } finally {
    // Once the records are gone: a read made while the purge ran is not held either.
    deps.forget?.(ref);
  }
}

/**
 * Why the lifecycle runs where the event arrives: it only deletes (no token, no digest), and a purge
 * must not wait behind digest work for a workspace that is gone.
 */
const PURGE = "purges the workspace's records; needs no token and must not wait behind digests";

/** The lifecycle entries, bound to the install layer's stores. */
export function lifecycleEvents(deps: LifecycleDeps): EventEntry[] {
  return [
    // `app_uninstalled`: purge the workspace (or, for an org-wide install, the enterprise).
    onEvent({ id: "app_uninstalled", inline: PURGE, run: (ctx) => purge(deps, ctx.ref, "app_uninstalled") }),
    // Revoked bot tokens mean the app can no longer act there: purge as for an uninstall. Revoked
    // user tokens only drop the installer's user token; the rest stays.
    onEvent({
      id: "tokens_revoked",
      inline: PURGE,
      async run(ctx) {
        const tokens = (ctx.event.tokens ?? {}) as { bot?: string[]; oauth?: string[] };
        const bots = tokens.bot ?? [];
        const users = tokens.oauth ?? [];
        if (bots.length > 0) return purge(deps, ctx.ref, "tokens_revoked");
        if (users.length === 0) return;
        const dropped = await deps.records.removeUserToken(ctx.ref, users);
        deps.forget?.(ctx.ref);
        deps.logger.info({ workspace: refLabel(ctx.ref), dropped }, "user tokens revoked");
      },
    }),
    // The org-wide install can no longer act in these workspaces, so each one's own data goes as on
    // a `tokens_revoked`; the org's shared record stays for the workspaces it still reaches. The event
    // names no workspace of its own (`team_id: null`): the enterprise comes from its authorization.
    onEvent({
      id: "team_access_revoked",
      inline: PURGE,
      async run(ctx) {
        const enterpriseId = ctx.context.enterpriseId;
        const teams = Array.isArray(ctx.event.team_ids)
          ? ctx.event.team_ids.filter((t) => typeof t === "string")
          : [];
        if (!enterpriseId) {
          deps.logger.warn({ teams: teams.length }, "team_access_revoked without an enterprise; ignored");
          return;
        }
        for (const teamId of teams)
          await purge(deps, { enterpriseId, teamId, isEnterpriseInstall: false }, "team_access_revoked");
      },
    }),
  ];
}
