import { commandForm, interactionBase, interactionForm } from "../../../sandbox/slack/client/payloads.ts";
import { slackSignature } from "../../../sandbox/slack/index.ts";

/**
 * What the bench's Slack sends, as plain data that crosses to the sender process: a slash command,
 * a click on a control of a private (ephemeral) digest, a keystroke in its asset menu's search, or a
 * modal submission. The sender signs and
 * builds each body at send time (`signedRequest`), with a response_url on its own sink.
 */

interface Who {
  teamId: string;
  userId: string;
  channelId: string;
}

export interface CommandSpec extends Who {
  kind: "command";
  text: string;
}

export interface ActionSpec extends Who {
  kind: "action";
  /** A label for per-kind figures (`range`, `asset`, `why`, `group`). */
  label: string;
  action: Record<string, unknown>;
}

export interface ViewSpec extends Who {
  kind: "view";
  label: string;
  callbackId: string;
  privateMetadata: string;
  values: Record<string, unknown>;
  /** The view's input blocks (Slack sends the view's blocks; errors may only name these). */
  blockIds: string[];
}

/** A keystroke in an external menu's search (Slack's block_suggestion): its answer is the ack's body. */
export interface OptionsSpec extends Who {
  kind: "options";
  label: string;
  actionId: string;
  blockId: string;
  /** What is typed so far. */
  value: string;
}

export type RequestSpec = CommandSpec | ActionSpec | ViewSpec | OptionsSpec;

/** The label a figure is grouped by. */
export const labelOf = (s: RequestSpec): string => (s.kind === "command" ? "command" : s.label);

const actor = (s: Who) => ({
  teamId: s.teamId,
  domain: `bench-${s.teamId.toLowerCase()}`,
  enterprise: null,
  isEnterpriseInstall: false,
  userId: s.userId,
  userName: `u${s.userId.toLowerCase()}`,
  appId: "A0INSIGHTS",
});

/** Where a click or a search on a private digest comes from: its (ephemeral) message. */
const ephemeralMessage = (s: Who, nowSec: number) => ({
  type: "message",
  message_ts: `${nowSec}.000100`,
  channel_id: s.channelId,
  is_ephemeral: true,
});

/** The body Slack would send for `s`; `responseUrl` is where its answers go (none for a modal). */
export function requestBody(s: RequestSpec, n: number, responseUrl: string, nowSec: number): string {
  if (s.kind === "command")
    return commandForm(actor(s), {
      command: "/insights",
      text: s.text,
      channelId: s.channelId,
      channelName: "general",
      responseUrl,
      triggerId: `${n}.bench`,
    });
  if (s.kind === "options")
    return interactionForm({
      ...interactionBase(actor(s), "block_suggestion"),
      container: ephemeralMessage(s, nowSec),
      action_id: s.actionId,
      block_id: s.blockId,
      value: s.value,
      channel: { id: s.channelId, name: "general" },
    });
  if (s.kind === "action")
    return interactionForm({
      ...interactionBase(actor(s), "block_actions"),
      container: ephemeralMessage(s, nowSec),
      trigger_id: `${n}.bench`,
      channel: { id: s.channelId, name: "general" },
      state: { values: {} },
      response_url: responseUrl,
      actions: [{ action_ts: `${nowSec}.000200`, ...s.action }],
    });
  return interactionForm({
    ...interactionBase(actor(s), "view_submission"),
    trigger_id: `${n}.bench`,
    view: {
      id: `VB${String(n).padStart(9, "0")}`,
      team_id: s.teamId,
      type: "modal",
      callback_id: s.callbackId,
      private_metadata: s.privateMetadata,
      blocks: s.blockIds.map((id) => ({ type: "input", block_id: id })),
      state: { values: s.values },
      hash: `${n}.hash`,
      app_id: "A0INSIGHTS",
    },
    response_urls: [],
  });
}

/** `requestBody` signed as Slack signs it. */
export function signedRequest(s: RequestSpec, n: number, responseUrl: string, secret: string) {
  const ts = Math.floor(Date.now() / 1000);
  const body = requestBody(s, n, responseUrl, ts);
  const headers = {
    "content-type": "application/x-www-form-urlencoded",
    "x-slack-request-timestamp": String(ts),
    "x-slack-signature": slackSignature(secret, ts, body),
  };
  return { body, headers };
}
