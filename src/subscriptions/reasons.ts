/**
 * Why a subscription paused or a delivery failed, in words, with what fixes it. One table for the
 * owner's DM, the failure notice and the App Home row. Codes are Slack's or our AppError codes.
 */

export interface ReasonText {
  /** What happened, as a sentence fragment: "the channel was archived". */
  what: string;
  /** What fixes it, as an instruction. */
  fix: string;
}

/** Reasons that belong to the channel: lifting them is a channel event (unarchive, bot invited). */
export const CHANNEL_REASONS = [
  "is_archived",
  "channel_not_found",
  "not_in_channel",
  "channel_archived",
  "channel_deleted",
  "bot_removed",
] as const;

const REASONS: Record<string, ReasonText> = {
  paused_by_user: { what: "it was paused", fix: "Resume it when you want digests again." },
  is_archived: {
    what: "the channel is archived",
    fix: "Unarchive the channel, then resume the subscription.",
  },
  channel_archived: {
    what: "the channel was archived",
    fix: "Unarchive the channel, then resume the subscription.",
  },
  channel_not_found: {
    what: "the channel no longer exists or the app cannot see it",
    fix: "Subscribe another channel, or invite the app to this one (/invite @insights) and resume.",
  },
  channel_deleted: { what: "the channel was deleted", fix: "Subscribe another channel." },
  not_in_channel: {
    what: "the app is not a member of the channel",
    fix: "Invite it with /invite @insights in the channel, then resume the subscription.",
  },
  bot_removed: {
    what: "the app was removed from the channel",
    fix: "Invite it again with /invite @insights, then resume the subscription.",
  },
  invalid_auth: {
    what: "Slack refused the app's token",
    fix: "Reinstall the app in this workspace, then resume.",
  },
  account_inactive: {
    what: "the app's Slack token is no longer active",
    fix: "Reinstall the app, then resume.",
  },
  token_revoked: { what: "the app's Slack token was revoked", fix: "Reinstall the app, then resume." },
  not_authed: {
    what: "the app has no Slack token for this workspace",
    fix: "Reinstall the app, then resume.",
  },
  installation_not_found: {
    what: "the app is no longer installed in this workspace",
    fix: "Reinstall the app, then resume the subscription.",
  },
  restricted_action: {
    what: "a workspace setting stops the app from posting in the channel",
    fix: "Ask a workspace admin to let the app post there, then resume.",
  },
  restricted_action_read_only_channel: {
    what: "the channel is read-only for the app",
    fix: "Allow the app to post in the channel's settings (or subscribe another channel), then resume.",
  },
  restricted_action_thread_only_channel: {
    what: "the channel only accepts replies in threads",
    fix: "Allow top-level posts for the app in the channel's settings (or subscribe another channel), then resume.",
  },
  access_denied: {
    what: "Slack denied the app access to the channel",
    fix: "Check the app's access to the channel with a workspace admin, then resume.",
  },
  enterprise_is_restricted: {
    what: "an organization policy blocks the app from posting",
    fix: "Ask an org admin of your Enterprise Grid to allow the app, then resume.",
  },
  unauthorized: {
    what: "the platform rejected the workspace's API key",
    fix: "An admin can save a valid key with /insights connect, then resume.",
  },
  not_connected: {
    what: "the workspace has no platform API key",
    fix: "An admin can connect one with /insights connect, then resume.",
  },
  decrypt_failed: {
    what: "the stored API key can no longer be decrypted",
    fix: "An admin can save the key again with /insights connect, then resume.",
  },
  group_gone: {
    what: "an asset group it is filtered to no longer exists in the platform",
    fix: "Subscribe again with the groups or assets that exist now (or resume once the group is back).",
  },
  unavailable: {
    what: "the analytics service did not answer",
    fix: "Nothing to do; the next run tries again.",
  },
  rate_limited: { what: "the analytics service was busy", fix: "Nothing to do; the next run tries again." },
  stalled: {
    what: "the app's workers stopped responding while delivering it, several times over",
    fix: "Nothing to do if it was a one-off; if it happens again, tell whoever runs the app (its workers are overloaded or crashing).",
  },
};

/** Words for a reason code; unknown codes (or free text given to `pause`) get a generic fix. */
export function describeReason(code: string): ReasonText {
  return (
    REASONS[code] ?? {
      what: /^[a-z_]+$/.test(code) ? `of an error (${code})` : code,
      fix: "Check the subscription and resume it; /insights status shows the connection.",
    }
  );
}
