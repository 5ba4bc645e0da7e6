import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from "@slack/bolt";
import { publishHome } from "../../home.ts";
import type { AppServices } from "../../services.ts";
import { workspaceOf } from "../../workspace.ts";

/**
 * The Home tab is drawn when its user opens it, so it always shows the current key status and
 * subscriptions (other users' changes included). The Messages tab needs nothing.
 */
export function appHomeOpened(deps: AppServices) {
  return async ({
    event,
    client,
    context,
  }: SlackEventMiddlewareArgs<"app_home_opened"> & AllMiddlewareArgs) => {
    if (event.tab !== "home") return;
    await publishHome(deps, client, workspaceOf(context), event.user);
  };
}
