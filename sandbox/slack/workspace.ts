import { loadManifest } from "./manifest/manifest.ts";
import type { Channel, ChannelSeed, User, UserSeed, Workspace, WorkspaceSeed } from "./types.ts";

/** Fills a user seed's defaults: a plain full member in UTC. */
export function toUser(teamId: string, seed: UserSeed): User {
  return {
    id: seed.id,
    teamId,
    name: seed.name ?? seed.id.toLowerCase(),
    realName: seed.realName ?? seed.name ?? seed.id,
    tz: seed.tz ?? "UTC",
    isAdmin: seed.isAdmin ?? false,
    isOwner: seed.isOwner ?? false,
    isPrimaryOwner: seed.isPrimaryOwner ?? false,
    isRestricted: seed.isRestricted ?? false,
    isBot: seed.isBot ?? false,
    deleted: seed.deleted ?? false,
  };
}

export function toChannel(ws: Workspace, seed: ChannelSeed, created: number): Channel {
  return {
    id: seed.id,
    teamId: ws.teamId,
    name: seed.name,
    isPrivate: seed.isPrivate ?? false,
    isIm: false,
    archived: seed.archived ?? false,
    botMember: seed.botMember ?? true,
    members: new Set(seed.members ?? [...ws.users.keys()]),
    created,
  };
}

/** Builds the mutable workspace record from a seed (users first, so channels can default to all of them). */
export function toWorkspace(seed: WorkspaceSeed, nowSec: number): Workspace {
  const ws: Workspace = {
    teamId: seed.teamId,
    name: seed.name,
    domain: seed.domain ?? seed.name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
    enterprise: seed.enterprise ?? null,
    isEnterpriseInstall: seed.isEnterpriseInstall ?? false,
    botUserId: seed.botUserId ?? `U0BOT${seed.teamId.slice(-4)}`,
    botId: seed.botId ?? `B0BOT${seed.teamId.slice(-4)}`,
    installerUserId: seed.installerUserId ?? seed.users?.[0]?.id ?? "U0INSTALL",
    // Unless a test says otherwise, the workspace installed the app from its manifest.
    scopes: [...(seed.scopes ?? loadManifest().botScopes)],
    tokenRotation: seed.tokenRotation ?? false,
    users: new Map(),
    channels: new Map(),
  };
  for (const u of seed.users ?? []) ws.users.set(u.id, toUser(ws.teamId, u));
  for (const c of seed.channels ?? []) ws.channels.set(c.id, toChannel(ws, c, nowSec));
  return ws;
}

/** The app's direct-message channel with a user; Slack opens one on first post to a user id. */
export function imChannel(ws: Workspace, userId: string, nowSec: number): Channel {
  const id = `D${userId.slice(1)}`;
  let ch = ws.channels.get(id);
  if (!ch) {
    ch = {
      id,
      teamId: ws.teamId,
      name: userId,
      isPrivate: true,
      isIm: true,
      archived: false,
      botMember: true,
      members: new Set([userId]),
      created: nowSec,
    };
    ws.channels.set(id, ch);
  }
  return ch;
}
