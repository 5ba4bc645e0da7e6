import type { App } from "@slack/bolt";
import type { AppServices } from "../../services.ts";
import { appHomeOpened } from "./app-home-opened.ts";
import { botLeft, channelGone, channelReturned } from "./channel-events.ts";

/**
 * Events API listeners, one table. The lifecycle events (`app_uninstalled`, `tokens_revoked`) are
 * registered by the install layer, which owns the purge.
 */
export function registerEvents(app: App, deps: AppServices): void {
  app.event("app_home_opened", appHomeOpened(deps));
  app.event("channel_archive", channelGone(deps, "channel_archived"));
  app.event("group_archive", channelGone(deps, "channel_archived"));
  app.event("channel_deleted", channelGone(deps, "channel_deleted"));
  app.event("group_deleted", channelGone(deps, "channel_deleted"));
  app.event("member_left_channel", botLeft(deps));
  app.event("channel_left", botLeft(deps));
  app.event("group_left", botLeft(deps));
  app.event("channel_unarchive", channelReturned(deps));
  app.event("group_unarchive", channelReturned(deps));
  app.event("member_joined_channel", channelReturned(deps));
}
