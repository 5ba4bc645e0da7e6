import { type Actor, interactionBase } from "./payloads.ts";

/**
 * Payload shapes Slack documents for what it may send an app, as a catalogue the tests replay
 * against the app: every Events API event type (with the fields its reference page shows), the
 * outer envelopes without an inner event, and every interaction kind, legacy ones included. The
 * point is breadth: each must be acknowledged within 3 s whether or not the app cares about it.
 */

/** Ids the stand-in minted for this delivery. */
export interface Minted {
  responseUrl: string;
  triggerId: string;
  channelId: string;
  ts: string;
  botUserId: string;
}

export type Shape =
  | { kind: "event"; name: string; event: (a: Actor, m: Minted) => Record<string, unknown> }
  | { kind: "outer"; name: string; body: (a: Actor, m: Minted) => Record<string, unknown> }
  | { kind: "interaction"; name: string; payload: (a: Actor, m: Minted) => Record<string, unknown> };

const ev = (type: string, fields: (a: Actor, m: Minted) => Record<string, unknown> = () => ({})): Shape => ({
  kind: "event",
  name: type,
  event: (a, m) => ({ type, ...fields(a, m) }),
});

const channelObj = (m: Minted) => ({
  id: m.channelId,
  name: "general",
  created: 1_700_000_000,
  creator: "U0CREATOR",
});
const file = (m: Minted) => ({ id: "F0FILE0001", file_id: "F0FILE0001", channel_id: m.channelId });
const userObj = (a: Actor) => ({ id: a.userId, team_id: a.teamId, name: a.userName, tz: "Europe/Berlin" });
const msg = (a: Actor, m: Minted, extra: Record<string, unknown> = {}) => ({
  channel: m.channelId,
  user: a.userId,
  text: "hello",
  ts: m.ts,
  channel_type: "channel",
  ...extra,
});

/** Every Events API event type an app can subscribe to, in the shape of its reference page. */
export const EVENT_SHAPES: Shape[] = [
  ev("app_home_opened", (a) => ({ user: a.userId, channel: "D0APPHOME1", tab: "messages" })),
  ev("app_mention", (a, m) => msg(a, m, { text: `<@${m.botUserId}> last7d` })),
  ev("app_requested", (a) => ({ app_request: { id: "1234", app: { id: a.appId }, user: userObj(a) } })),
  ev("app_uninstalled_team", () => ({})),
  ev("call_rejected", (a, m) => ({ call_id: "R0CALL0001", user_id: a.userId, channel_id: m.channelId })),
  ev("channel_created", (_a, m) => ({ channel: channelObj(m) })),
  ev("channel_history_changed", (_a, m) => ({ latest: m.ts, ts: m.ts })),
  ev("channel_id_changed", (_a, m) => ({ old_channel_id: "C0OLD00001", new_channel_id: m.channelId })),
  ev("channel_rename", (_a, m) => ({
    channel: { id: m.channelId, name: "renamed", created: 1_700_000_000 },
  })),
  ev("channel_shared", (_a, m) => ({ connected_team_id: "T0OTHER001", channel: m.channelId })),
  ev("channel_unshared", (_a, m) => ({
    previously_connected_team_id: "T0OTHER001",
    channel: m.channelId,
    is_ext_shared: false,
  })),
  ev("dnd_updated_user", (a) => ({
    user: a.userId,
    dnd_status: { dnd_enabled: true, next_dnd_start_ts: 1, next_dnd_end_ts: 2 },
  })),
  ev("email_domain_changed", () => ({ email_domain: "example.com" })),
  ev("emoji_changed", () => ({
    subtype: "add",
    name: "picard_facepalm",
    value: "https://example.com/p.png",
  })),
  ev("file_change", (_a, m) => file(m)),
  ev("file_created", (_a, m) => ({ ...file(m), file: { id: "F0FILE0001" } })),
  ev("file_deleted", (_a, m) => file(m)),
  ev("file_public", (_a, m) => file(m)),
  ev("file_shared", (a, m) => ({ ...file(m), user_id: a.userId })),
  ev("file_unshared", (_a, m) => file(m)),
  ev("grid_migration_finished", (a) => ({ enterprise_id: a.enterprise?.id ?? "E0GRID0001" })),
  ev("grid_migration_started", (a) => ({ enterprise_id: a.enterprise?.id ?? "E0GRID0001" })),
  ev("group_close", (a, m) => ({ user: a.userId, channel: m.channelId })),
  ev("group_history_changed", (_a, m) => ({ latest: m.ts, ts: m.ts })),
  ev("group_open", (a, m) => ({ user: a.userId, channel: m.channelId })),
  ev("group_rename", (_a, m) => ({ channel: { id: m.channelId, name: "renamed", created: 1_700_000_000 } })),
  ev("im_close", (a) => ({ user: a.userId, channel: "D0DM000001" })),
  ev("im_created", (a) => ({ user: a.userId, channel: { id: "D0DM000001" } })),
  ev("im_history_changed", (_a, m) => ({ latest: m.ts, ts: m.ts })),
  ev("im_open", (a) => ({ user: a.userId, channel: "D0DM000001" })),
  ev("invite_requested", (a) => ({
    invite_request: { id: "12345", email: "a@example.com", team: { id: a.teamId } },
  })),
  ev("link_shared", (a, m) => ({
    channel: m.channelId,
    user: a.userId,
    message_ts: m.ts,
    unfurl_id: "C123456.7890.abc",
    source: "conversations_history",
    links: [{ domain: "example.com", url: "https://example.com/12345" }],
  })),
  ev("message", (a, m) => msg(a, m)),
  ev("message", (a, m) => msg(a, m, { channel_type: "group" })),
  ev("message", (a, m) => msg(a, m, { channel: "D0DM000001", channel_type: "im" })),
  ev("message", (a, m) => msg(a, m, { channel_type: "mpim" })),
  ev("message", (a, m) => msg(a, m, { channel: "D0APPHOME1", channel_type: "app_home" })),
  ev("message", (a, m) =>
    msg(a, m, { subtype: "message_changed", message: msg(a, m), previous_message: msg(a, m) }),
  ),
  ev("message", (a, m) => msg(a, m, { subtype: "message_deleted", deleted_ts: m.ts })),
  ev("message", (_a, m) => ({
    channel: m.channelId,
    subtype: "bot_message",
    bot_id: "B0BOT00001",
    text: "hi",
    ts: m.ts,
  })),
  ev("message_metadata_posted", (a, m) => ({
    app_id: a.appId,
    channel_id: m.channelId,
    message_ts: m.ts,
    metadata: { event_type: "x", event_payload: {} },
  })),
  ev("message_metadata_updated", (a, m) => ({ app_id: a.appId, channel_id: m.channelId, message_ts: m.ts })),
  ev("message_metadata_deleted", (a, m) => ({ app_id: a.appId, channel_id: m.channelId, message_ts: m.ts })),
  ev("pin_added", (a, m) => ({
    user: a.userId,
    channel_id: m.channelId,
    item: { type: "message", channel: m.channelId },
  })),
  ev("pin_removed", (a, m) => ({
    user: a.userId,
    channel_id: m.channelId,
    item: { type: "message", channel: m.channelId },
    has_pins: false,
  })),
  ev("reaction_added", (a, m) => ({
    user: a.userId,
    reaction: "thumbsup",
    item_user: a.userId,
    item: { type: "message", channel: m.channelId, ts: m.ts },
  })),
  ev("reaction_removed", (a, m) => ({
    user: a.userId,
    reaction: "thumbsup",
    item: { type: "message", channel: m.channelId, ts: m.ts },
  })),
  ev("shared_channel_invite_accepted", (_a, m) => ({
    approval_required: false,
    invite: { id: "I0INVITE01" },
    channel: { id: m.channelId },
  })),
  ev("shared_channel_invite_approved", (_a, m) => ({
    invite: { id: "I0INVITE01" },
    channel: { id: m.channelId },
  })),
  ev("shared_channel_invite_declined", (_a, m) => ({
    invite: { id: "I0INVITE01" },
    channel: { id: m.channelId },
  })),
  ev("shared_channel_invite_received", (_a, m) => ({
    invite: { id: "I0INVITE01" },
    channel: { id: m.channelId },
  })),
  ev("star_added", (a, m) => ({ user: a.userId, item: { type: "message", channel: m.channelId } })),
  ev("star_removed", (a, m) => ({ user: a.userId, item: { type: "message", channel: m.channelId } })),
  ev("subteam_created", () => ({ subteam: { id: "S0TEAM0001", handle: "security" } })),
  ev("subteam_members_changed", () => ({ subteam_id: "S0TEAM0001", added_users: [], removed_users: [] })),
  ev("subteam_self_added", () => ({ subteam_id: "S0TEAM0001" })),
  ev("subteam_self_removed", () => ({ subteam_id: "S0TEAM0001" })),
  ev("subteam_updated", () => ({ subteam: { id: "S0TEAM0001", handle: "security" } })),
  ev("team_access_granted", (a) => ({ team_ids: [a.teamId] })),
  ev("team_domain_change", () => ({ url: "https://renamed.slack.com", domain: "renamed" })),
  ev("team_join", (a) => ({ user: userObj(a) })),
  ev("team_rename", () => ({ name: "Renamed team" })),
  ev("user_change", (a) => ({ user: userObj(a) })),
  ev("user_huddle_changed", (a) => ({ user: userObj(a) })),
  ev("user_profile_changed", (a) => ({ user: userObj(a) })),
  ev("user_status_changed", (a) => ({ user: userObj(a) })),
  // The app's own: handled for real, so they only need to be acked like the rest.
  ev("channel_archive", (a, m) => ({ channel: m.channelId, user: a.userId })),
  ev("channel_unarchive", (a, m) => ({ channel: m.channelId, user: a.userId })),
  ev("member_joined_channel", (a, m) => ({
    user: a.userId,
    channel: m.channelId,
    channel_type: "C",
    team: a.teamId,
  })),
  ev("member_left_channel", (a, m) => ({
    user: a.userId,
    channel: m.channelId,
    channel_type: "C",
    team: a.teamId,
  })),
];

/** Envelopes without an inner event. `app_rate_limited` is the one Slack sends; the rest probe. */
export const OUTER_SHAPES: Shape[] = [
  {
    kind: "outer",
    name: "app_rate_limited",
    body: (a) => ({
      token: "standin-verification-token",
      type: "app_rate_limited",
      team_id: a.teamId,
      minute_rate_limited: Math.floor(Date.now() / 60_000) * 60,
      api_app_id: a.appId,
    }),
  },
  {
    kind: "outer",
    name: "event_callback without an event",
    body: (a) => ({
      token: "standin-verification-token",
      type: "event_callback",
      team_id: a.teamId,
      api_app_id: a.appId,
    }),
  },
];

/** An interaction payload of `type` (its common fields filled in), with the fields of its kind. */
const interaction = (
  type: string,
  name: string,
  fields: (a: Actor, m: Minted) => Record<string, unknown> = () => ({}),
): Shape => ({
  kind: "interaction",
  name,
  payload: (a, m) => ({ ...interactionBase(a, type), ...fields(a, m) }),
});

/** The fields a legacy interaction in a channel carries. */
const inChannel = (m: Minted) => ({
  channel: { id: m.channelId, name: "general" },
  action_ts: m.ts,
  response_url: m.responseUrl,
});

const message = (m: Minted) => ({
  type: "message",
  user: m.botUserId,
  ts: m.ts,
  text: "An older digest",
});

/** A modal as view_submission and view_closed payloads carry it. */
const modal = (id: string, callbackId: string) => ({
  id,
  type: "modal",
  callback_id: callbackId,
  state: { values: {} },
  hash: "1.a",
});

/** Every interaction kind: the app's own controls are elsewhere; these are the ones it never declared. */
export const INTERACTION_SHAPES: Shape[] = [
  interaction("block_actions", "block_actions: an action id the app no longer renders", (_a, m) => ({
    container: { type: "message", message_ts: m.ts, channel_id: m.channelId, is_ephemeral: false },
    trigger_id: m.triggerId,
    channel: { id: m.channelId, name: "general" },
    message: message(m),
    response_url: m.responseUrl,
    actions: [
      { type: "button", action_id: "digest_refresh_v0", block_id: "b1", value: "x", action_ts: m.ts },
    ],
  })),
  interaction("shortcut", "shortcut (global)", (_a, m) => ({
    callback_id: "open_insights",
    trigger_id: m.triggerId,
    action_ts: m.ts,
  })),
  interaction("message_action", "message_action (message shortcut)", (_a, m) => ({
    callback_id: "explain_digest",
    trigger_id: m.triggerId,
    message_ts: m.ts,
    message: message(m),
    ...inChannel(m),
  })),
  interaction("interactive_message", "interactive_message (legacy attachment buttons)", (_a, m) => ({
    actions: [{ name: "refresh", type: "button", value: "1" }],
    callback_id: "legacy_digest",
    ...inChannel(m),
    message_ts: m.ts,
    attachment_id: "1",
    trigger_id: m.triggerId,
    original_message: message(m),
  })),
  interaction("dialog_submission", "dialog_submission (legacy dialog)", (_a, m) => ({
    submission: { name: "x" },
    callback_id: "legacy_dialog",
    state: "",
    ...inChannel(m),
  })),
  interaction("dialog_cancellation", "dialog_cancellation (legacy dialog)", (_a, m) => ({
    callback_id: "legacy_dialog",
    state: "",
    ...inChannel(m),
  })),
  interaction("dialog_suggestion", "dialog_suggestion (legacy dialog type-ahead)", (_a, m) => ({
    name: "asset",
    value: "pay",
    callback_id: "legacy_dialog",
    channel: { id: m.channelId, name: "general" },
    action_ts: m.ts,
  })),
  interaction("block_suggestion", "block_suggestion for a menu the app no longer renders", (_a, m) => ({
    action_id: "digest_owner_v0",
    block_id: "b1",
    value: "pay",
    container: { type: "message", message_ts: m.ts, channel_id: m.channelId, is_ephemeral: true },
    channel: { id: m.channelId, name: "general" },
  })),
  interaction("view_submission", "view_submission of a modal the app no longer opens", () => ({
    view: { ...modal("V0OLDVIEW1", "feedback_modal"), private_metadata: "" },
    response_urls: [],
  })),
  interaction("view_closed", "view_closed of the app's own modal", () => ({
    view: modal("V0CLOSED01", "subscribe_modal"),
    is_cleared: false,
  })),
  interaction("workflow_step_edit", "workflow_step_edit (retired workflow steps)", (_a, m) => ({
    callback_id: "insights_step",
    trigger_id: m.triggerId,
  })),
];

/** The whole catalogue. */
export const DOCUMENTED_SHAPES: Shape[] = [...EVENT_SHAPES, ...OUTER_SHAPES, ...INTERACTION_SHAPES];
