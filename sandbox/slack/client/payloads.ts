/**
 * Pure builders of what Slack sends to an app: slash-command forms, interaction payloads and Events
 * API envelopes, with the fields Slack fills in. No I/O; the client module mints ids and delivers.
 */

/** The deprecated verification token; Slack still sends it, Bolt ignores it in favour of signatures. */
export const VERIFICATION_TOKEN = "standin-verification-token";

/** Who acts, in which workspace, for which app. */
export interface Actor {
  teamId: string;
  domain: string;
  enterprise: { id: string; name: string } | null;
  isEnterpriseInstall: boolean;
  userId: string;
  userName: string;
  appId: string;
  /**
   * Overrides the payload's `team`. Slack Connect: a user of another workspace acts in a shared
   * channel, so `team` (and `user.team_id`) name their workspace, not the one that installed the app.
   */
  payloadTeam?: { id: string; domain: string } | null;
}

export interface CommandFields {
  command: string;
  text: string;
  channelId: string;
  channelName: string;
  responseUrl: string;
  triggerId: string;
}

/** The form body of a slash command (every value a string, as Slack sends it). */
export function commandForm(a: Actor, c: CommandFields): string {
  const fields: Record<string, string> = {
    token: VERIFICATION_TOKEN,
    team_id: a.teamId,
    team_domain: a.domain,
    ...(a.enterprise ? { enterprise_id: a.enterprise.id, enterprise_name: a.enterprise.name } : {}),
    channel_id: c.channelId,
    channel_name: c.channelName,
    user_id: a.userId,
    user_name: a.userName,
    command: c.command,
    text: c.text,
    api_app_id: a.appId,
    is_enterprise_install: String(a.isEnterpriseInstall),
    response_url: c.responseUrl,
    trigger_id: c.triggerId,
  };
  return new URLSearchParams(fields).toString();
}

/** Interactivity arrives as a form with one field, `payload`, holding JSON. */
export function interactionForm(payload: Record<string, unknown>): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * The fields every interaction payload shares. With an org-wide install Slack sends `team: null`
 * (the user's workspace is only in `user.team_id`); the enterprise and `is_enterprise_install` say
 * which install the request belongs to.
 */
export function interactionBase(a: Actor, type: string): Record<string, unknown> {
  const own = {
    id: a.teamId,
    domain: a.domain,
    ...(a.enterprise ? { enterprise_id: a.enterprise.id, enterprise_name: a.enterprise.name } : {}),
  };
  const team = a.payloadTeam !== undefined ? a.payloadTeam : a.isEnterpriseInstall ? null : own;
  const userTeam = a.payloadTeam ? a.payloadTeam.id : a.teamId;
  return {
    type,
    token: VERIFICATION_TOKEN,
    api_app_id: a.appId,
    user: { id: a.userId, username: a.userName, name: a.userName, team_id: userTeam },
    team,
    enterprise: a.enterprise,
    is_enterprise_install: a.isEnterpriseInstall,
  };
}

/** Events about the org app itself carry no workspace in their envelope (`team_id: null`). */
const ORG_LEVEL_EVENTS = new Set(["team_access_granted", "team_access_revoked"]);

export interface EventFields {
  event: Record<string, unknown>;
  eventId: string;
  eventTimeSec: number;
  botUserId: string;
}

/**
 * An Events API `event_callback` envelope, with the app's authorization in that workspace. An
 * org-wide install's authorization names no team (`team_id: null`), only the enterprise.
 */
export function eventCallback(
  a: Omit<Actor, "userId" | "userName">,
  e: EventFields,
): Record<string, unknown> {
  const enterpriseId = a.enterprise?.id ?? null;
  const orgLevel = ORG_LEVEL_EVENTS.has(String(e.event.type));
  return {
    token: VERIFICATION_TOKEN,
    team_id: orgLevel ? null : a.teamId,
    ...(enterpriseId ? { enterprise_id: enterpriseId } : {}),
    context_team_id: a.teamId,
    context_enterprise_id: enterpriseId,
    api_app_id: a.appId,
    event: { event_ts: `${e.eventTimeSec}.000100`, ...e.event },
    type: "event_callback",
    event_id: e.eventId,
    event_time: e.eventTimeSec,
    authorizations: [
      {
        enterprise_id: enterpriseId,
        team_id: a.isEnterpriseInstall ? null : a.teamId,
        user_id: e.botUserId,
        is_bot: true,
        is_enterprise_install: a.isEnterpriseInstall,
      },
    ],
    is_ext_shared_channel: false,
  };
}
