import type { Installation } from "@slack/bolt";
import { z } from "zod";
import { AppError } from "../errors.ts";
import type { SealedRecord } from "../store/sealed-store.ts";

/**
 * How an installation maps onto one sealed hash: tokens (and the webhook URL, which lets anyone
 * post) are sealed secrets, everything else plain fields. Pure: no Redis, no clock.
 */

/** Sealed purposes; each becomes the `enc:<purpose>` field and part of the envelope's AAD. */
export const SECRET = {
  botToken: "bot_token",
  botRefreshToken: "bot_refresh_token",
  userToken: "user_token",
  userRefreshToken: "user_refresh_token",
  webhookUrl: "webhook_url",
} as const;

/** Bumped when the field layout changes, so old records can be told apart. */
const SCHEMA = "1";

const id = z.string().regex(/^[A-Z0-9]{1,32}$/);
const text = z.string().max(1000);
const epochSec = z
  .string()
  .regex(/^\d{1,12}$/)
  .transform(Number);
const scopes = z
  .string()
  .max(4000)
  .transform((s) => (s === "" ? [] : s.split(",")));

/** Plain fields as read back; unknown extra fields are ignored, anything malformed rejects the record. */
const fieldsSchema = z.object({
  schema: z.literal(SCHEMA),
  rev: z.string().min(1).max(64),
  authVersion: z.enum(["v1", "v2"]),
  isEnterpriseInstall: z.enum(["true", "false"]),
  installedAt: z.string().max(40),
  teamId: id.optional(),
  teamName: text.optional(),
  enterpriseId: id.optional(),
  enterpriseName: text.optional(),
  enterpriseUrl: text.optional(),
  appId: id.optional(),
  tokenType: z.literal("bot").optional(),
  userId: id,
  userScopes: scopes.optional(),
  userExpiresAt: epochSec.optional(),
  botId: id.optional(),
  botUserId: id.optional(),
  botScopes: scopes.optional(),
  botExpiresAt: epochSec.optional(),
  webhookChannel: text.optional(),
  webhookChannelId: id.optional(),
  webhookConfigUrl: text.optional(),
  metadata: z.string().max(3000).optional(),
});

const secretsSchema = z.object({
  bot_token: z.string().min(1).optional(),
  bot_refresh_token: z.string().min(1).optional(),
  user_token: z.string().min(1).optional(),
  user_refresh_token: z.string().min(1).optional(),
  webhook_url: z.string().min(1).optional(),
});

/** The entries that have a value, as strings: a hash stores no empty fields. */
function present(values: Record<string, string | number | undefined | null>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== null && value !== "") out[name] = String(value);
  return out;
}

/**
 * Splits an installation into sealed secrets and plain fields. `rev` is the compare-and-set token
 * of this write; `installedAt` an ISO timestamp.
 */
export function toSealedRecord(installation: Installation, rev: string, installedAt: string): SealedRecord {
  const { bot, user, team, enterprise, incomingWebhook: hook } = installation;
  if (!user?.id) throw new AppError("invalid_installation", "The installation names no installing user");
  const fields = present({
    schema: SCHEMA,
    rev,
    authVersion: installation.authVersion ?? "v2",
    isEnterpriseInstall: installation.isEnterpriseInstall ? "true" : "false",
    installedAt,
    teamId: team?.id,
    teamName: team?.name,
    enterpriseId: enterprise?.id,
    enterpriseName: enterprise?.name,
    enterpriseUrl: installation.enterpriseUrl,
    appId: installation.appId,
    tokenType: installation.tokenType,
    userId: user.id,
    userScopes: user.scopes?.join(","),
    userExpiresAt: user.expiresAt,
    metadata: installation.metadata,
    botId: bot?.id,
    botUserId: bot?.userId,
    botScopes: bot?.scopes.join(","),
    botExpiresAt: bot?.expiresAt,
    webhookChannel: hook?.channel,
    webhookChannelId: hook?.channelId,
    webhookConfigUrl: hook?.configurationUrl,
  });
  const secrets = present({
    [SECRET.userToken]: user.token,
    [SECRET.userRefreshToken]: user.refreshToken,
    [SECRET.botToken]: bot?.token,
    [SECRET.botRefreshToken]: bot?.refreshToken,
    [SECRET.webhookUrl]: hook?.url,
  });
  return { secrets, fields };
}

/** An installation as read back, with the revision a compare-and-set must name. */
export interface StoredInstallation {
  installation: Installation;
  rev: string;
}

const invalid = (reason: string) =>
  new AppError("bad_installation", `The stored installation is unusable: ${reason}`);

/**
 * Rebuilds the installation from a stored record, checking every field. `expect` are the ids of
 * the key it was read from: a record whose own ids differ was moved or tampered with.
 */
export function fromSealedRecord(
  record: SealedRecord,
  expect: { enterpriseId?: string; teamId?: string; isEnterpriseInstall: boolean },
): StoredInstallation {
  const parsedFields = fieldsSchema.safeParse(record.fields);
  const parsedSecrets = secretsSchema.safeParse(record.secrets);
  // Zod issues name paths only, never values; still, keep the message to field names.
  if (!parsedFields.success) throw invalid(`bad fields (${issuePaths(parsedFields.error.issues)})`);
  if (!parsedSecrets.success) throw invalid(`bad secrets (${issuePaths(parsedSecrets.error.issues)})`);
  const f = parsedFields.data;
  const s = parsedSecrets.data;
  const org = f.isEnterpriseInstall === "true";
  if (org !== expect.isEnterpriseInstall) throw invalid("install kind does not match its key");
  if (f.enterpriseId !== expect.enterpriseId) throw invalid("enterprise does not match its key");
  if (!org && f.teamId !== expect.teamId) throw invalid("team does not match its key");
  const hasBot = f.botId !== undefined || s.bot_token !== undefined;
  if (hasBot && (!f.botId || !f.botUserId || !s.bot_token)) throw invalid("incomplete bot");
  if (s.bot_refresh_token && f.botExpiresAt === undefined) throw invalid("refresh token without expiry");

  const installation: Installation = {
    team: f.teamId ? { id: f.teamId, ...(f.teamName ? { name: f.teamName } : {}) } : undefined,
    enterprise: f.enterpriseId
      ? { id: f.enterpriseId, ...(f.enterpriseName ? { name: f.enterpriseName } : {}) }
      : undefined,
    user: {
      id: f.userId,
      token: s.user_token,
      scopes: f.userScopes,
      ...(s.user_refresh_token ? { refreshToken: s.user_refresh_token, expiresAt: f.userExpiresAt } : {}),
    },
    isEnterpriseInstall: org,
    authVersion: f.authVersion,
    ...(f.appId ? { appId: f.appId } : {}),
    ...(f.tokenType ? { tokenType: f.tokenType } : {}),
    ...(f.enterpriseUrl ? { enterpriseUrl: f.enterpriseUrl } : {}),
    ...(f.metadata !== undefined ? { metadata: f.metadata } : {}),
  };
  if (hasBot && f.botId && f.botUserId && s.bot_token) {
    installation.bot = {
      id: f.botId,
      userId: f.botUserId,
      token: s.bot_token,
      scopes: f.botScopes ?? [],
      ...(s.bot_refresh_token ? { refreshToken: s.bot_refresh_token } : {}),
      ...(f.botExpiresAt !== undefined ? { expiresAt: f.botExpiresAt } : {}),
    };
  }
  if (s.webhook_url) {
    installation.incomingWebhook = {
      url: s.webhook_url,
      ...(f.webhookChannel ? { channel: f.webhookChannel } : {}),
      ...(f.webhookChannelId ? { channelId: f.webhookChannelId } : {}),
      ...(f.webhookConfigUrl ? { configurationUrl: f.webhookConfigUrl } : {}),
    };
  }
  return { installation, rev: f.rev };
}

function issuePaths(issues: readonly { path: readonly PropertyKey[] }[]): string {
  return [...new Set(issues.map((i) => i.path.map(String).join(".") || "(root)"))].join(", ");
}
