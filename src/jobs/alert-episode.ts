import { alertEpisodeMessage, type EpisodeEvent, episodeReply } from "../../templates/alert-message.ts";
import type { EpisodeView } from "../subscriptions/alerts.ts";
import { periodTime } from "../subscriptions/period.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { EpisodeBody } from "./alert-state.ts";

/**
 * Telling an episode: its message redrawn from what was kept when it fired and the state stored now,
 * and each change a reply in its thread. Shared by the worker (fire, clear, a snooze that ends) and
 * the buttons on the message (acknowledge, snooze, pause), so both draw the same message. Only the
 * caller whose Redis script decided a change calls this for it, so each change is told once.
 */

/** One Slack Web API call with the workspace's bot token (the worker's client or the listener's). */
export type SlackCall = (method: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** The episode as its message shows it: the record's state when the message is this episode's. */
export function episodeOf(sub: Subscription, body: EpisodeBody): EpisodeView {
  const alert = sub.runs?.alert;
  const current = alert?.episode?.id === body.ep;
  const firing = current && alert?.state === "firing" && !body.cleared;
  const view: EpisodeView = {
    id: body.ep,
    firedAt: (periodTime(body.ep) ?? new Date(0)).toISOString(),
    state: firing ? "firing" : "clear",
  };
  if (current && alert?.acknowledged) view.acknowledged = alert.acknowledged;
  if (firing && alert?.snoozed) view.snoozed = alert.snoozed;
  if (body.cleared) view.cleared = body.cleared;
  if (sub.status === "paused")
    view.paused = {
      at: sub.pausedAt ?? new Date(0).toISOString(),
      reason: describeReason(sub.pausedReason ?? "paused_by_user").what,
    };
  return view;
}

/** The ts of the episode's message, when the record knows it and it is `ep`'s. */
export function episodeTs(sub: Subscription, ep: string): string | undefined {
  const episode = sub.runs?.alert?.episode;
  return episode?.id === ep ? episode.ts : undefined;
}

/**
 * Redraws the episode's message (`ts`) as it stands, then, for a change, replies in its thread
 * (with `metadata`, so a worker that takes over can find the reply). Returns the reply's ts.
 */
export async function tellEpisode(
  call: SlackCall,
  sub: Subscription,
  body: EpisodeBody,
  ts: string,
  event?: EpisodeEvent,
  metadata?: Record<string, unknown>,
): Promise<string | undefined> {
  const message = alertEpisodeMessage(body.head, body.text, sub.id, episodeOf(sub, body));
  await call("chat.update", { channel: body.channel, ts, ...message });
  if (!event) return undefined;
  const reply = await call("chat.postMessage", {
    channel: body.channel,
    thread_ts: ts,
    ...episodeReply(event),
    unfurl_links: false,
    ...(metadata ? { metadata } : {}),
  });
  return String(reply.ts ?? "");
}
