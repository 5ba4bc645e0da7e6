/**
 * Shapes of the Slack stand-in: the seeds tests hand in and the records it keeps. Field names follow
 * camelCase here; the wire format (snake_case) is produced by the API handlers.
 */

/** A member of a seeded workspace. Flags default to a plain full member in `UTC`. */
export interface UserSeed {
  id: string;
  name?: string;
  realName?: string;
  /** IANA zone; `tz_offset` is computed from it (DST-aware) when users.info is called. */
  tz?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  isPrimaryOwner?: boolean;
  isRestricted?: boolean;
  isBot?: boolean;
  deleted?: boolean;
}

export interface ChannelSeed {
  id: string;
  name: string;
  isPrivate?: boolean;
  archived?: boolean;
  /** Whether the app's bot user is in the channel (default true). */
  botMember?: boolean;
  /** Human members; defaults to every user of the workspace. */
  members?: string[];
}

export interface WorkspaceSeed {
  teamId: string;
  name: string;
  domain?: string;
  enterprise?: { id: string; name: string } | null;
  isEnterpriseInstall?: boolean;
  /** The bot token the app is configured with (single-workspace mode) or that OAuth hands out. */
  botToken: string;
  botUserId?: string;
  botId?: string;
  /** Who installs the app when `oauth.v2.access` exchanges a code for this team. */
  installerUserId?: string;
  scopes?: string[];
  /** When true, `oauth.v2.access` issues expiring tokens plus a refresh token. */
  tokenRotation?: boolean;
  users?: UserSeed[];
  channels?: ChannelSeed[];
}

export interface User extends Required<Omit<UserSeed, "tz">> {
  teamId: string;
  tz: string;
}

export interface Channel {
  id: string;
  teamId: string;
  name: string;
  isPrivate: boolean;
  isIm: boolean;
  archived: boolean;
  botMember: boolean;
  members: Set<string>;
  created: number;
}

export interface Workspace {
  teamId: string;
  name: string;
  domain: string;
  enterprise: { id: string; name: string } | null;
  isEnterpriseInstall: boolean;
  botUserId: string;
  botId: string;
  installerUserId: string;
  scopes: string[];
  tokenRotation: boolean;
  users: Map<string, User>;
  channels: Map<string, Channel>;
}

/** One request the stand-in answered, Web API or otherwise (`response_url`, `upload`). */
export interface RecordedCall {
  method: string;
  teamId: string | undefined;
  /** Arguments as received, JSON-encoded fields decoded, with tokens and secrets left out. */
  args: Record<string, unknown>;
  at: number;
  ok: boolean;
  error: string | undefined;
  status: number;
  /** For `missing_scope`: the scopes the call needed (Slack's `needed`). */
  needed?: string;
}

export interface ChannelMessage {
  channelId: string;
  teamId: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  /** Bot user id for app messages, the human's id for `in_channel` responses. */
  user: string;
  botId: string | undefined;
  threadTs: string | undefined;
  files: string[] | undefined;
  via: string;
  editedAt: number | undefined;
  /** Message metadata as posted (`{event_type, event_payload}`); returned by conversations.history. */
  metadata?: Record<string, unknown>;
}

export interface EphemeralMessage {
  userId: string;
  channelId: string;
  teamId: string;
  ts: string;
  text: string | undefined;
  blocks: unknown[] | undefined;
  via: string;
  editedAt: number | undefined;
  deleted: boolean;
}

/** One POST to a response_url and what it did. */
export interface ResponseRecord {
  responseId: string;
  at: number;
  status: number;
  body: Record<string, unknown> | undefined;
  /** `ack`: a slash command's immediate answer (its ack's body), shown without using the url. */
  outcome: "ephemeral" | "in_channel" | "replaced" | "deleted" | "rejected" | "ack";
  error: string | undefined;
}

export interface StoredView {
  id: string;
  teamId: string;
  userId: string | undefined;
  type: "modal" | "home";
  externalId: string | undefined;
  hash: string;
  rootViewId: string;
  previousViewId: string | undefined;
  closed: boolean;
  /** The view object as the app sent it (title, blocks, callback_id, private_metadata, …). */
  view: Record<string, unknown>;
}

export interface StoredFile {
  id: string;
  teamId: string;
  filename: string;
  title: string | undefined;
  declaredLength: number;
  altText: string | undefined;
  size: number | undefined;
  contentType: string | undefined;
  bytes: Buffer | undefined;
  completed: boolean;
  /** When Slack has processed it (stand-in clock): its upload completed plus the processing time. */
  readyAt: number | undefined;
  channels: string[];
  initialComment: string | undefined;
}

/** Rate-limit settings: Slack allows about one chat.postMessage per second per channel. */
export interface RateLimitSettings {
  enabled: boolean;
  perChannelPerSecond: number;
}
