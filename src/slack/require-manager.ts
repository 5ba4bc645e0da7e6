import type { WebClient } from "@slack/web-api";
import { AppError } from "../errors.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { canManage, managersOnly } from "./permissions.ts";
import type { AppServices } from "./services.ts";
import type { SlackUser } from "./users.ts";

/** Looks the user up and throws `forbidden` unless they may manage; one check for every surface. */
export async function requireManagerUser(
  deps: Pick<AppServices, "users" | "policy" | "installerOf">,
  ref: WorkspaceRef,
  client: WebClient,
  userId: string,
  action: string,
): Promise<SlackUser> {
  const user = await deps.users.get(ref, client, userId);
  if (!canManage(user, deps.policy, await deps.installerOf(ref)))
    throw new AppError("forbidden", managersOnly(action));
  return user;
}
