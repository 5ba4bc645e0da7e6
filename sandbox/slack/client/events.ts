/**
 * Builders for the `event` objects the app subscribes to, shaped as Slack sends them. Pass the result
 * as `event` to `sendEvent`. They only build payloads: to make the stand-in's state agree (archive
 * the channel, revoke the token), call its control methods as well.
 */
export const slackEvents = {
  appUninstalled: () => ({ type: "app_uninstalled" }),
  /** An org-wide install lost these workspaces of its org; sent with `team_id: null`. */
  teamAccessRevoked: (teamIds: string[]) => ({ type: "team_access_revoked", team_ids: teamIds }),
  /** `bot` lists the bot user ids whose tokens were revoked. */
  tokensRevoked: (o: { bot?: string[]; oauth?: string[] }) => ({
    type: "tokens_revoked",
    tokens: { oauth: o.oauth ?? [], bot: o.bot ?? [] },
  }),
  channelArchive: (channel: string, user: string) => ({ type: "channel_archive", channel, user }),
  channelUnarchive: (channel: string, user: string) => ({ type: "channel_unarchive", channel, user }),
  channelDeleted: (channel: string) => ({ type: "channel_deleted", channel }),
  memberLeftChannel: (user: string, channel: string, channelType: "C" | "G" = "C") => ({
    type: "member_left_channel",
    user,
    channel,
    channel_type: channelType,
  }),
  appHomeOpened: (user: string, channel: string, tab: "home" | "messages" = "home") => ({
    type: "app_home_opened",
    user,
    channel,
    tab,
  }),
} as const;
