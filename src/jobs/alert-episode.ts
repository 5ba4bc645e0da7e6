import { alertEpisodeMessage, type EpisodeEvent, episodeReply } from "../../templates/alert-message.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { EpisodeView } from "../subscriptions/alerts.ts";
import { periodTime } from "../subscriptions/period.ts";
import { describeReason } from "../subscriptions/reasons.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { AlertStateStore, EpisodeBody } from "./alert-state.ts";

/**
 * Telling an episode: its message redrawn from what was kept when it fired and the state stored now,
 * and each change a reply in its thread. Shared by the worker (fire, clear, a snooze that ends) and
 * the buttons on the message (acknowledge, snooze, pause), so both draw the same message. Only the
 * caller whose Redis script decided a change calls this for it, so each change is told once; every
 * redraw reads the state under the alert's draw lock, so the last edit to reach Slack shows the
 * latest state, whoever sent it.
 */

/** One Slack Web API call with the workspace's bot token (the worker's client or the listener's). */
export type SlackCall = (method: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * The alert as its message shows it: a transition already decided and being told (a clear, or a
 * snooze that ended) is shown as told, so a redraw made while it is told draws what the record will
 * say once it is.
 */
function asTold(sub: Subscription): Subscription {
  const alert = sub.runs?.alert;
  const post = alert?.pending?.post;
  if (!alert || (post !== "clear" && post !== "resume")) return sub;
  const { snoozed: _ended, pending: _told, ...rest } = alert;
  return { ...sub, runs: { ...sub.runs, alert: { ...rest, state: post === "clear" ? "clear" : "firing" } } };
}

/** The episode as its message shows it: the record's state when the message is this episode's. */
export function episodeOf(record: Subscription, body: EpisodeBody): EpisodeView {
  const sub = asTold(record);
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

/** An episode's message as one redraw drew it. */
export interface Drawn {
  channel: string;
  ts: string;
}

/**
 * Redraws episode `ep`'s message from the record and kept message as they stand when the edit goes
 * out (read with the alert's draw lock held). Null, and nothing drawn, when the record or the kept
 * message no longer know that episode's message (deleted, or a newer episode fired).
 */
export async function redrawEpisode(
  alerts: Pick<AlertStateStore, "drawing">,
  call: SlackCall,
  ref: WorkspaceRef,
  subId: string,
  ep: string,
): Promise<Drawn | null> {
  return alerts.drawing(ref, subId, async ({ sub, body }) => {
    const episode = sub?.runs?.alert?.episode;
    if (!sub || !body || body.ep !== ep || episode?.id !== ep || !episode.ts) return null;
    const message = alertEpisodeMessage(body.head, body.text, sub.id, episodeOf(sub, body));
    await call("chat.update", { channel: body.channel, ts: episode.ts, ...message });
    return { channel: body.channel, ts: episode.ts };
  });
}

/**
 * Replies `event` in the thread of a drawn message (with `metadata`, so a worker that takes over can
 * find the reply). Returns the reply's ts.
 */
export async function replyInThread(
  call: SlackCall,
  drawn: Drawn,
  event: EpisodeEvent,
  metadata?: Record<string, unknown>,
): Promise<string> {
  const reply = await call("chat.postMessage", {
    channel: drawn.channel,
    thread_ts: drawn.ts,
    ...episodeReply(event),
    unfurl_links: false,
    ...(metadata ? { metadata } : {}),
  });
  return String(reply.ts ?? "");
}
