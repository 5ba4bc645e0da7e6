import { isRecord } from "../api/args.ts";
import { wireView } from "../api/views.ts";
import { findEphemeral, findMessage, wireMessage } from "../messages.ts";
import type { StandInState } from "../state.ts";
import { findElement } from "./actions.ts";
import { actorFor, mintResponseUrl, mintTrigger } from "./mint.ts";
import { interactionBase } from "./payloads.ts";

/**
 * Who interacts. `enterpriseId` overrides the workspace's own (for org-level tests); `payloadTeam`
 * overrides the payload's `team` (a Slack Connect user from another workspace, or `null`).
 */
export interface Who {
  teamId: string;
  userId: string;
  enterpriseId?: string;
  payloadTeam?: { id: string; domain: string } | null;
}

function whoActs(state: StandInState, appId: string, o: Who) {
  return { ...actorFor(state, appId, o.teamId, o.userId, o.enterpriseId), payloadTeam: o.payloadTeam };
}

export interface BlockActionInput extends Who {
  actions: unknown[];
  channelId?: string;
  /** The message acted on; with only `ts`, blocks and text come from the stand-in's records. */
  message?: { ts: string; blocks?: unknown[]; text?: string };
  /** Merged over the container the stand-in derives (e.g. force `is_ephemeral`). */
  container?: Record<string, unknown>;
  /** Reuse this response_url instead of minting one. */
  responseUrl?: string;
  /** For actions inside a modal or the Home tab: the view (at least its `id`). No response_url then. */
  view?: { id: string } & Record<string, unknown>;
  /** `state.values` as Slack sends it for inputs and selects on the surface. */
  values?: Record<string, unknown>;
}

export interface Built {
  payload: Record<string, unknown>;
  responseUrl: string | undefined;
  triggerId: string;
}

/** A stored view as Slack sends it back, with the caller's fields on top. */
export function viewPayload(
  state: StandInState,
  appId: string,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const stored = typeof given.id === "string" ? state.views.get(given.id) : undefined;
  if (!stored) return { type: "modal", state: { values: {} }, ...given };
  return { ...wireView(stored, state.workspaces.get(stored.teamId), appId), ...given };
}

function fromView(state: StandInState, appId: string, o: BlockActionInput & { view: { id: string } }): Built {
  const triggerId = mintTrigger(state, o.teamId, o.userId, o.view.id);
  const view = viewPayload(state, appId, { ...o.view, state: { values: o.values ?? {} } });
  const payload = {
    ...interactionBase(whoActs(state, appId, o), "block_actions"),
    container: { type: "view", view_id: o.view.id, ...o.container },
    trigger_id: triggerId,
    view,
    actions: o.actions,
  };
  return { payload, responseUrl: undefined, triggerId };
}

/** A block_actions payload; response_url and trigger_id are minted so later calls can be checked. */
export function blockActions(
  state: StandInState,
  appId: string,
  baseUrl: string,
  o: BlockActionInput,
): Built {
  if (o.view) return fromView(state, appId, { ...o, view: o.view });
  const channelId =
    o.channelId ?? (typeof o.container?.channel_id === "string" ? o.container.channel_id : undefined);
  const ts = o.message?.ts;
  const posted = channelId && ts ? findMessage(state, channelId, ts) : undefined;
  const eph = channelId && ts && !posted ? findEphemeral(state, channelId, ts) : undefined;
  const ephemeral =
    o.container?.is_ephemeral === true || (eph !== undefined && o.container?.is_ephemeral !== false);
  const target = channelId && ts ? { channelId, ts, ephemeral } : undefined;
  const responseUrl =
    o.responseUrl ??
    mintResponseUrl(state, baseUrl, { teamId: o.teamId, userId: o.userId, channelId, target });
  const triggerId = mintTrigger(state, o.teamId, o.userId);
  const channel = channelId ? state.workspaces.get(o.teamId)?.channels.get(channelId) : undefined;
  // Slack leaves `message` out for ephemeral messages: apps must carry what they need in values.
  const message = ephemeral ? undefined : { ...(posted ? wireMessage(posted, appId) : {}), ...o.message };
  const payload = {
    ...interactionBase(whoActs(state, appId, o), "block_actions"),
    container: {
      type: "message",
      message_ts: ts,
      channel_id: channelId,
      is_ephemeral: ephemeral,
      ...o.container,
    },
    trigger_id: triggerId,
    ...(channelId ? { channel: { id: channelId, name: channel?.name ?? channelId } } : {}),
    ...(message ? { message } : {}),
    state: { values: o.values ?? {} },
    response_url: responseUrl,
    actions: o.actions,
  };
  return { payload, responseUrl, triggerId };
}

export interface ViewSubmissionInput extends Who {
  /** The submitted view: `id` of a view the app opened (its fields are filled in), plus overrides. */
  view: { id?: string; callback_id?: string; private_metadata?: string } & Record<string, unknown>;
  /** `view.state.values`: `{ [block_id]: { [action_id]: { type, value | selected_option … } } }`. */
  values?: Record<string, unknown>;
}

export function viewSubmission(state: StandInState, appId: string, o: ViewSubmissionInput): Built {
  const id = o.view.id ?? state.ids.viewId();
  const triggerId = mintTrigger(state, o.teamId, o.userId, id);
  const values = o.values ?? (isRecord(o.view.state) ? o.view.state.values : undefined) ?? {};
  const view = viewPayload(state, appId, { ...o.view, id, state: { values } });
  const payload = {
    ...interactionBase(whoActs(state, appId, o), "view_submission"),
    trigger_id: triggerId,
    view,
    response_urls: [],
  };
  return { payload, responseUrl: undefined, triggerId };
}

export interface OptionsInput extends Who {
  actionId: string;
  blockId?: string;
  /** What the user typed so far. */
  value: string;
  /** The modal or Home tab holding the external select; without it the select sits in a message. */
  viewId?: string;
  channelId?: string;
  messageTs?: string;
}

/** A block_suggestion (options load) payload; `block_id` is looked up in the view when not given. */
export function blockSuggestion(
  state: StandInState,
  appId: string,
  o: OptionsInput,
): Record<string, unknown> {
  const view = o.viewId ? viewPayload(state, appId, { id: o.viewId }) : undefined;
  const blockId = o.blockId ?? findElement(view?.blocks, o.actionId)?.blockId ?? "";
  return {
    ...interactionBase(whoActs(state, appId, o), "block_suggestion"),
    container: o.viewId
      ? { type: "view", view_id: o.viewId }
      : { type: "message", message_ts: o.messageTs, channel_id: o.channelId, is_ephemeral: false },
    action_id: o.actionId,
    block_id: blockId,
    value: o.value,
    ...(view ? { view } : {}),
    ...(o.channelId ? { channel: { id: o.channelId } } : {}),
  };
}
