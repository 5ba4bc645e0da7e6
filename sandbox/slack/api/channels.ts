import type { Channel, Workspace } from "../types.ts";
import { imChannel } from "../workspace.ts";
import { slackError } from "./args.ts";

/** Finds a channel by id, `#name` or name within one workspace; a user id opens the app's DM with them. */
export function lookupChannel(ws: Workspace, ref: string | undefined, nowSec: number): Channel | undefined {
  if (!ref) return undefined;
  const byId = ws.channels.get(ref);
  if (byId) return byId;
  if (/^[UW][A-Z0-9]+$/.test(ref) && ws.users.has(ref)) return imChannel(ws, ref, nowSec);
  const name = ref.replace(/^#/, "");
  for (const ch of ws.channels.values()) if (ch.name === name && !ch.isIm) return ch;
  return undefined;
}

/**
 * A channel the bot can see: private channels the bot is not in are invisible to it, exactly as in
 * Slack, so they answer `channel_not_found` rather than `not_in_channel`.
 */
export function visibleChannel(ws: Workspace, ref: string | undefined, nowSec: number): Channel {
  const ch = lookupChannel(ws, ref, nowSec);
  if (!ch || (ch.isPrivate && !ch.botMember)) throw slackError("channel_not_found");
  return ch;
}

/** A channel the bot may post in; the order of checks follows Slack (archived wins over membership). */
export function postableChannel(ws: Workspace, ref: string | undefined, nowSec: number): Channel {
  const ch = visibleChannel(ws, ref, nowSec);
  if (ch.archived) throw slackError("is_archived");
  if (!ch.botMember) throw slackError("not_in_channel");
  return ch;
}
