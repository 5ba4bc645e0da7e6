import type { WorkspaceSeed } from "./types.ts";

/** Ids of the default seed, so tests and the demo name them instead of repeating literals. */
export const DEMO = {
  teamId: "T0DEMO001",
  teamName: "Demo Co",
  botToken: "xoxb-demo-0000000001-standin",
  botUserId: "U0BOT0001",
  admin: "U0ADMIN01",
  member: "U0MEMBER1",
  owner: "U0OWNER01",
  general: "C0GENERAL",
  security: "C0SECURITY",
  noBot: "C0NOBOT01",
  archived: "C0ARCHIVE",
} as const;

/**
 * A workspace with one user of each role (in three time zones) and one channel per posting outcome:
 * two the bot is in, one it is not in, one archived.
 *
 * @example
 * const slack = await startSlackStandIn({ signingSecret, appUrl, workspaces: [defaultWorkspace()] });
 */
export function defaultWorkspace(overrides: Partial<WorkspaceSeed> = {}): WorkspaceSeed {
  return {
    teamId: DEMO.teamId,
    name: DEMO.teamName,
    domain: "demo-co",
    enterprise: null,
    botToken: DEMO.botToken,
    botUserId: DEMO.botUserId,
    installerUserId: DEMO.admin,
    users: [
      { id: DEMO.admin, name: "ada", realName: "Ada Admin", tz: "Europe/Berlin", isAdmin: true },
      { id: DEMO.member, name: "max", realName: "Max Member", tz: "America/Los_Angeles" },
      {
        id: DEMO.owner,
        name: "olu",
        realName: "Olu Owner",
        tz: "Asia/Kolkata",
        isAdmin: true,
        isOwner: true,
        isPrimaryOwner: true,
      },
    ],
    channels: [
      { id: DEMO.general, name: "general" },
      { id: DEMO.security, name: "security" },
      { id: DEMO.noBot, name: "random", botMember: false },
      { id: DEMO.archived, name: "old-alerts", archived: true },
    ],
    ...overrides,
  };
}
