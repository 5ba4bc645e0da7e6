import type { Context } from "@slack/bolt";
import { AppError } from "../errors.ts";
import type { WorkspaceRef } from "../store/keys.ts";

/**
 * The workspace a request belongs to, from Bolt's context. An org-wide install shares one record
 * (key, subscriptions) across the enterprise's workspaces.
 */
export function workspaceOf(context: Context): WorkspaceRef {
  if (context.isEnterpriseInstall && context.enterpriseId) {
    return { enterpriseId: context.enterpriseId, isEnterpriseInstall: true };
  }
  if (!context.teamId) throw new AppError("bad_request", "The request names no workspace.");
  return context.enterpriseId
    ? { enterpriseId: context.enterpriseId, teamId: context.teamId }
    : { teamId: context.teamId };
}
