import type { Installation, InstallationQuery } from "@slack/bolt";
import { AppError } from "../errors.ts";
import { type WorkspaceRef, workspaceIds } from "../store/keys.ts";

/**
 * Which record an installation or a Bolt query names. Org-wide installs live under the enterprise
 * alone, so every workspace of the org reads the same record whatever team a request came from.
 */

/** The ref an installation is stored under. Throws `invalid_installation` when it names neither id. */
export function refOfInstallation(installation: Installation): WorkspaceRef {
  const enterpriseId = installation.enterprise?.id || undefined;
  const ref: WorkspaceRef = installation.isEnterpriseInstall
    ? { enterpriseId, isEnterpriseInstall: true }
    : { ...(enterpriseId ? { enterpriseId } : {}), teamId: installation.team?.id };
  return checked(ref, "installation");
}

/** The ref a Bolt `fetchInstallation` / `deleteInstallation` query names. */
export function refOfQuery(query: InstallationQuery<boolean>): WorkspaceRef {
  const enterpriseId = query.enterpriseId || undefined;
  const ref: WorkspaceRef = query.isEnterpriseInstall
    ? { enterpriseId, isEnterpriseInstall: true }
    : { ...(enterpriseId ? { enterpriseId } : {}), teamId: query.teamId || undefined };
  return checked(ref, "query");
}

/** The same ref in its canonical form (no stray team on org-wide refs), or `invalid_installation`. */
function checked(ref: WorkspaceRef, what: string): WorkspaceRef {
  try {
    workspaceIds(ref);
  } catch (err) {
    throw new AppError("invalid_installation", `The ${what} names no valid workspace or enterprise`, {
      cause: err,
    });
  }
  return ref;
}

/** A short label for logs: `E…/T…`, `E…/*` for org-wide. Ids only, never names or tokens. */
export function refLabel(ref: WorkspaceRef): string {
  const ids = workspaceIds(ref);
  return `${ids.enterprise}/${ref.isEnterpriseInstall ? "*" : ids.team}`;
}
