import { AppError } from "../../../src/errors.ts";
import type { DeliveryOptions, SendResult } from "../client/http.ts";
import { addMessage, findMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import type { Channel, ChannelMessage, Workspace } from "../types.ts";
import { imChannel } from "../workspace.ts";
import { assistantState, statusOf } from "./state.ts";

/**
 * People writing to the app, as Slack delivers it: a message in the app's Messages tab reaches
 * the app as `message` with `channel_type: "im"` only when the app subscribes to `message.im`,
 * holds `im:history` and lets people write there (the tab is not read-only); a mention reaches it as
 * `app_mention` only in a conversation the app is in, with `app_mentions:read`. Opening the
 * Messages tab sends `app_home_opened` with `tab: "messages"`. And like Slack, the app's own posts
 * in a DM come back to it as `message.im` events: an app that answers them loops.
 */

export interface DmInput extends DeliveryOptions {
  teamId: string;
  userId: string;
  text: string;
  /** Reply in this thread of the DM (its parent's ts). */
  threadTs?: string;
}

export interface MentionInput extends DmInput {
  channelId: string;
}

/** A person's message: where it landed, and the delivery to the app (or why Slack sent none). */
export interface Posted {
  channelId: string;
  ts: string;
  delivered: SendResult | undefined;
  refused: string | undefined;
}

type Send = (teamId: string, event: Record<string, unknown>, o: DeliveryOptions) => Promise<SendResult>;

function workspace(state: StandInState, teamId: string): Workspace {
  const ws = state.workspaces.get(teamId);
  if (!ws) throw new AppError("unknown_team", `the Slack stand-in has no workspace ${teamId}`);
  return ws;
}

function post(state: StandInState, ws: Workspace, ch: Channel, o: DmInput): ChannelMessage {
  if (o.threadTs) {
    const parent = findMessage(state, ch.id, o.threadTs);
    if (!parent || parent.threadTs !== undefined)
      throw new AppError("unknown_thread", `no thread ${o.threadTs} in ${ch.id}`);
  }
  return addMessage(state, {
    channelId: ch.id,
    teamId: ws.teamId,
    text: o.text,
    blocks: undefined,
    user: o.userId,
    botId: undefined,
    threadTs: o.threadTs,
    files: undefined,
    via: "user",
  });
}

/** Why Slack would not tell the app about an event of `type` needing `scope`, if it would not. */
function withheld(
  state: StandInState,
  ws: Workspace,
  subscription: string,
  scope: string,
): string | undefined {
  if (!state.manifest.botEvents.includes(subscription)) return `not_subscribed: ${subscription}`;
  if (!ws.scopes.includes(scope)) return `missing_scope: ${scope}`;
  return undefined;
}

const messageEvent = (ws: Workspace, m: ChannelMessage, type: string, extra: Record<string, unknown>) => ({
  type,
  user: m.user,
  text: m.text,
  ts: m.ts,
  channel: m.channelId,
  event_ts: m.ts,
  team: ws.teamId,
  ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
  ...extra,
});

export function createAssistantClient(state: StandInState, send: Send) {
  return {
    /** A person writes to the app in its Messages tab (their DM with it). */
    async sendDm(o: DmInput): Promise<Posted> {
      const ws = workspace(state, o.teamId);
      if (state.manifest.messagesTab !== "open")
        return {
          channelId: "",
          ts: "",
          delivered: undefined,
          refused: `messages_tab_${state.manifest.messagesTab}`,
        };
      const ch = imChannel(ws, o.userId, Math.floor(state.now() / 1000));
      const m = post(state, ws, ch, o);
      const refused = withheld(state, ws, "message.im", "im:history");
      if (refused) return { channelId: ch.id, ts: m.ts, delivered: undefined, refused };
      const event = messageEvent(ws, m, "message", {
        channel_type: "im",
        client_msg_id: `${m.ts.replace(".", "")}-cmid`,
      });
      return { channelId: ch.id, ts: m.ts, delivered: await send(ws.teamId, event, o), refused: undefined };
    },

    /** A person posts in a channel; mentioning the app there (`<@bot>`) brings it an app_mention. */
    async mention(o: MentionInput): Promise<Posted> {
      const ws = workspace(state, o.teamId);
      const ch = ws.channels.get(o.channelId);
      if (!ch || ch.isIm)
        throw new AppError("unknown_channel", `the Slack stand-in has no channel ${o.channelId}`);
      const m = post(state, ws, ch, o);
      const refused = !o.text.includes(`<@${ws.botUserId}>`)
        ? "no_mention"
        : !ch.botMember
          ? "not_in_channel"
          : withheld(state, ws, "app_mention", "app_mentions:read");
      if (refused) return { channelId: ch.id, ts: m.ts, delivered: undefined, refused };
      const event = messageEvent(ws, m, "app_mention", {});
      return { channelId: ch.id, ts: m.ts, delivered: await send(ws.teamId, event, o), refused: undefined };
    },

    /** A person opens the app's Messages tab. */
    async openMessagesTab(o: { teamId: string; userId: string } & DeliveryOptions) {
      const ws = workspace(state, o.teamId);
      const ch = imChannel(ws, o.userId, Math.floor(state.now() / 1000));
      if (!state.manifest.botEvents.includes("app_home_opened"))
        return { channelId: ch.id, delivered: undefined, refused: "not_subscribed: app_home_opened" };
      const event = {
        type: "app_home_opened",
        user: o.userId,
        channel: ch.id,
        tab: "messages",
        event_ts: state.ids.ts(),
      };
      return { channelId: ch.id, delivered: await send(ws.teamId, event, o), refused: undefined };
    },

    /** The suggested prompts a DM shows now. */
    suggestedPrompts: (channelId: string) => assistantState(state).prompts.get(channelId),
    /** The status line a thread shows now, if any. */
    threadStatus: (channelId: string, threadTs: string) => statusOf(state, channelId, threadTs),
    /** Every status line set, in order. */
    statuses: () => [...assistantState(state).statuses],
    /** Calls Slack accepted and ignored (see assistant/api.ts). */
    ignoredCalls: () => [...assistantState(state).ignored],
    /** The message events the stand-in sent about the app's own DM posts. */
    echoes: () => [...assistantState(state).echoes],
    /** Whether the app's own DM posts come back as message.im events (default on, as in Slack). */
    setEchoes(on: boolean) {
      assistantState(state).echo = on;
    },
  };
}

export type AssistantClient = ReturnType<typeof createAssistantClient>;

/**
 * The app posted `m` in `ch`: in a DM, Slack tells an app subscribed to message.im about its own
 * message too (with its bot_id). Delivered in the background; recorded in `echoes()`.
 */
export function echoBotPost(
  state: StandInState,
  ws: Workspace,
  ch: Channel,
  m: ChannelMessage,
  appId: string,
): void {
  const a = assistantState(state);
  if (!ch.isIm || !a.echo || !a.deliver || withheld(state, ws, "message.im", "im:history")) return;
  const record = { teamId: ws.teamId, channelId: ch.id, ts: m.ts, status: undefined as number | undefined };
  a.echoes.push(record);
  const event = messageEvent(ws, m, "message", {
    channel_type: "im",
    bot_id: ws.botId,
    app_id: appId,
    bot_profile: { id: ws.botId, app_id: appId, name: "Insights", team_id: ws.teamId },
  });
  a.deliver(ws.teamId, event).then(
    (status) => {
      record.status = status;
    },
    () => {
      record.status = 0;
    },
  );
}
