import { AppError } from "../../../src/errors.ts";
import { randomHex } from "../ids.ts";
import { addMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import type { LinkShare } from "./types.ts";

export interface LinkPost {
  teamId: string;
  userId: string;
  channelId: string;
  /** The message text; links are found as Slack finds them (`<url>`, `<url|label>` or bare http(s) URLs). */
  text: string;
}

/** URLs in message text, in order, without duplicates. */
export function linksIn(text: string): string[] {
  const found = [
    ...[...text.matchAll(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>/g)].map((m) => m[1] as string),
    ...[...text.replace(/<[^>]*>/g, " ").matchAll(/https?:\/\/[^\s<>]+/g)].map((m) => m[0]),
  ];
  return [...new Set(found)];
}

/**
 * A person posts a message: it lands in the channel, and when it carries links whose host is one
 * of the app's unfurl domains (a subdomain counts, as in Slack), the link_shared event to deliver
 * is returned with only those links. Links to other hosts never reach the app.
 */
export function postLinks(
  state: StandInState,
  o: LinkPost,
  unfurlDomains: readonly string[],
): { ts: string; share: LinkShare | undefined; event: Record<string, unknown> | undefined } {
  const ws = state.workspaces.get(o.teamId);
  const channel = ws?.channels.get(o.channelId);
  if (!ws || !channel)
    throw new AppError("unknown_channel", `the Slack stand-in has no channel ${o.channelId}`);
  const msg = addMessage(state, {
    channelId: channel.id,
    teamId: ws.teamId,
    text: o.text,
    blocks: undefined,
    user: o.userId,
    botId: undefined,
    threadTs: undefined,
    files: undefined,
    via: "user",
  });
  const links = linksIn(o.text).flatMap((url) => {
    const host = new URL(url).hostname.toLowerCase();
    const domain = unfurlDomains.find((d) => host === d || host.endsWith(`.${d}`));
    return domain ? [{ domain, url }] : [];
  });
  if (links.length === 0) return { ts: msg.ts, share: undefined, event: undefined };
  const share: LinkShare = {
    unfurlId: `${channel.id}.${msg.ts}.${randomHex(16)}`,
    teamId: ws.teamId,
    channelId: channel.id,
    ts: msg.ts,
    userId: o.userId,
    source: "conversations_history",
    links,
    unfurls: {},
  };
  state.linkShares.set(share.unfurlId, share);
  const event = {
    type: "link_shared",
    channel: channel.id,
    is_bot_user_member: channel.botMember,
    user: o.userId,
    message_ts: msg.ts,
    unfurl_id: share.unfurlId,
    source: share.source,
    links,
  };
  return { ts: msg.ts, share, event };
}
