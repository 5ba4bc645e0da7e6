import type { EventEntry } from "../../frame/index.ts";
import { appHomeOpened } from "./app-home-opened.ts";
import { CHANNEL_EVENTS } from "./channel-events.ts";
import { linkShared } from "./link-shared.ts";

/**
 * Events API entries. The lifecycle events (`app_uninstalled`, `tokens_revoked`) come from
 * lifecycle.ts, built with the install layer that owns the purge.
 */
export const EVENTS: EventEntry[] = [appHomeOpened, ...CHANNEL_EVENTS, linkShared];
