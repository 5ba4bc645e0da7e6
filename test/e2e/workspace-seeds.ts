import type { WorkspaceSeed } from "../../sandbox/slack/types.ts";
import type { Caller } from "./helpers.ts";

/**
 * Workspaces of their own for the multi-workspace scenarios (OAuth installs, Enterprise Grid, Slack
 * Connect), every id derived from the team id: an admin who installed the app, a member, #general.
 */
export function workspaceSeed(
  teamId: string,
  extra: Partial<WorkspaceSeed> = {},
  memberTz = "UTC",
): WorkspaceSeed {
  const tail = teamId.slice(2);
  return {
    teamId,
    name: `Team ${teamId}`,
    botToken: `xoxb-${teamId.toLowerCase()}-e2e`,
    botUserId: `UB${tail}`,
    installerUserId: `UA${tail}`,
    users: [
      { id: `UA${tail}`, name: "admin", tz: "UTC", isAdmin: true },
      { id: `UM${tail}`, name: "member", tz: memberTz },
    ],
    channels: [{ id: channel({ teamId }), name: "general" }],
    ...extra,
  };
}

export const admin = (s: WorkspaceSeed) => s.installerUserId as string;
export const member = (s: WorkspaceSeed) => `UM${s.teamId.slice(2)}`;
export function channel(s: Pick<WorkspaceSeed, "teamId">): string {
  return `C${s.teamId.slice(1)}`;
}

/** `s`'s admin (default) or another of its users, in its #general. */
export const inSeed = (s: WorkspaceSeed, userId: string = admin(s)): Caller => ({
  teamId: s.teamId,
  userId,
  channelId: channel(s),
});
