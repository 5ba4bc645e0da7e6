import type { StandInState } from "./state.ts";
import type { ChannelMessage, EphemeralMessage } from "./types.ts";

export type NewMessage = Omit<ChannelMessage, "ts" | "editedAt">;

/** Appends to a channel's history with a fresh ts (history stays in ts order). */
export function addMessage(state: StandInState, m: NewMessage): ChannelMessage {
  const msg: ChannelMessage = {
    ...m,
    ...(state.lean ? { blocks: undefined } : {}),
    ts: state.ids.ts(),
    editedAt: undefined,
  };
  const list = state.messages.get(m.channelId) ?? [];
  list.push(msg);
  state.messages.set(m.channelId, list);
  return msg;
}

export function findMessage(state: StandInState, channelId: string, ts: string): ChannelMessage | undefined {
  return state.messages.get(channelId)?.find((m) => m.ts === ts);
}

export function removeMessage(state: StandInState, channelId: string, ts: string): boolean {
  const list = state.messages.get(channelId);
  const i = list?.findIndex((m) => m.ts === ts) ?? -1;
  if (!list || i < 0) return false;
  list.splice(i, 1);
  return true;
}

export type NewEphemeral = Omit<EphemeralMessage, "ts" | "editedAt" | "deleted">;

export function addEphemeral(state: StandInState, m: NewEphemeral): EphemeralMessage {
  const msg: EphemeralMessage = { ...m, ts: state.ids.ts(), editedAt: undefined, deleted: false };
  state.ephemerals.push(msg);
  return msg;
}

export function findEphemeral(
  state: StandInState,
  channelId: string,
  ts: string,
): EphemeralMessage | undefined {
  return state.ephemerals.find((m) => m.channelId === channelId && m.ts === ts && !m.deleted);
}

/** A message as Slack returns it inside API replies and interaction payloads. */
export function wireMessage(m: ChannelMessage | EphemeralMessage, appId: string): Record<string, unknown> {
  const posted = "botId" in m ? m : undefined;
  return {
    type: "message",
    ts: m.ts,
    ...(m.text !== undefined ? { text: m.text } : {}),
    ...(m.blocks !== undefined ? { blocks: m.blocks } : {}),
    ...(posted ? { user: posted.user } : {}),
    ...(posted?.botId ? { bot_id: posted.botId, app_id: appId } : {}),
    ...(posted?.threadTs ? { thread_ts: posted.threadTs } : {}),
    ...(posted?.files ? { files: posted.files.map((id) => ({ id })) } : {}),
    team: m.teamId,
    ...(m.editedAt !== undefined ? { edited: { ts: (m.editedAt / 1000).toFixed(6) } } : {}),
  };
}
