import type { Channel, User, Workspace } from "../types.ts";
import { imChannel } from "../workspace.ts";
import { bool, slackError, str } from "./args.ts";
import { visibleChannel } from "./channels.ts";
import { type ApiMethod, authed } from "./context.ts";
import { historyMethod, repliesMethod } from "./history.ts";

/** The zone's offset from UTC at `at` (so DST applies as in Slack's `tz_offset`) and its long name. */
export function zoneInfo(tz: string, at: Date): { offsetSec: number; label: string } {
  const part = (style: "longOffset" | "long") =>
    new Intl.DateTimeFormat("en-US", { timeZone: tz, timeZoneName: style })
      .formatToParts(at)
      .find((p) => p.type === "timeZoneName")?.value ?? "";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part("longOffset"));
  const offsetSec = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  return { offsetSec, label: part("long") };
}

function wireUser(u: User, at: Date): Record<string, unknown> {
  const zone = zoneInfo(u.tz, at);
  return {
    id: u.id,
    team_id: u.teamId,
    name: u.name,
    deleted: u.deleted,
    real_name: u.realName,
    tz: u.tz,
    tz_label: zone.label,
    tz_offset: zone.offsetSec,
    profile: { real_name: u.realName, display_name: u.name, team: u.teamId },
    is_admin: u.isAdmin,
    is_owner: u.isOwner,
    is_primary_owner: u.isPrimaryOwner,
    is_restricted: u.isRestricted,
    is_ultra_restricted: false,
    is_bot: u.isBot,
    is_app_user: false,
    updated: Math.floor(at.getTime() / 1000),
  };
}

function wireChannel(ch: Channel, ws: Workspace, withCount: boolean): Record<string, unknown> {
  if (ch.isIm)
    return {
      id: ch.id,
      created: ch.created,
      is_im: true,
      is_org_shared: false,
      user: ch.name,
      is_archived: false,
    };
  return {
    id: ch.id,
    name: ch.name,
    name_normalized: ch.name,
    created: ch.created,
    creator: ws.installerUserId,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: ch.isPrivate,
    is_archived: ch.archived,
    is_general: ch.name === "general",
    is_shared: false,
    is_ext_shared: false,
    is_org_shared: false,
    is_member: ch.botMember,
    context_team_id: ws.teamId,
    ...(withCount ? { num_members: ch.members.size + (ch.botMember ? 1 : 0) } : {}),
  };
}

export const directoryMethods: Record<string, ApiMethod> = {
  "auth.test": {
    auth: "bot",
    run(ctx) {
      const { ws } = authed(ctx);
      return {
        url: `https://${ws.domain}.slack.com/`,
        team: ws.name,
        user: "insights",
        team_id: ws.teamId,
        user_id: ws.botUserId,
        bot_id: ws.botId,
        ...(ws.enterprise ? { enterprise_id: ws.enterprise.id } : {}),
        is_enterprise_install: ws.isEnterpriseInstall,
      };
    },
  },
  "users.info": {
    auth: "bot",
    run(ctx) {
      const user = authed(ctx).ws.users.get(str(ctx.args, "user") ?? "");
      if (!user) throw slackError("user_not_found");
      return { user: wireUser(user, new Date(ctx.state.now())) };
    },
  },
  "conversations.info": {
    auth: "bot",
    run(ctx) {
      const { ws } = authed(ctx);
      const ch = visibleChannel(ws, str(ctx.args, "channel"), Math.floor(ctx.state.now() / 1000));
      return { channel: wireChannel(ch, ws, bool(ctx.args, "include_num_members")) };
    },
  },
  /** Tiered as Slack does for the app's distribution (history.ts). */
  "conversations.history": historyMethod,
  "conversations.replies": repliesMethod,
  "conversations.open": {
    auth: "bot",
    run(ctx) {
      const { ws } = authed(ctx);
      const users = (str(ctx.args, "users") ?? "").split(",").filter(Boolean);
      if (users.length !== 1)
        throw slackError(users.length === 0 ? "users_list_not_supplied" : "not_supported");
      const userId = users[0] ?? "";
      if (!ws.users.has(userId)) throw slackError("user_not_found");
      return { channel: { id: imChannel(ws, userId, Math.floor(ctx.state.now() / 1000)).id } };
    },
  },
};
