import type { Installation } from "@slack/bolt";
import { addDays, utcToday } from "../../../sandbox/analytics/days.ts";
import { accountFor, type Emulator, startEmulator, warmCounts } from "../../../sandbox/analytics/index.ts";
import { type PrivateRedis, startPrivateRedis } from "../../../sandbox/redis.ts";
import { type SlackStandIn, startSlackStandIn } from "../../../sandbox/slack/index.ts";
import type { WorkspaceSeed } from "../../../sandbox/slack/types.ts";
import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import { connectRedis } from "../../../src/app/redis.ts";
import { parseKeyring } from "../../../src/config.ts";
import { createInstallationStore } from "../../../src/install/index.ts";
import { silentLogger } from "../../../src/log.ts";
import { createApiKeyStore } from "../../../src/store/api-keys.ts";
import { formatKeyring, generateKeyring } from "../../../src/store/crypto.ts";
import type { RedisClient } from "../../../src/store/redis-client.ts";
import { scanKeys } from "../../../src/store/scan.ts";

/**
 * The bench's world for the ack section: a private Redis, the analytics emulator and the Slack
 * stand-in in this process, and the environment the product's processes (`start`, `web`, `worker`)
 * are started with. OAuth mode: `workspaces` installations stored the way the install flow stores
 * them (sealed), each workspace with its own platform API key (its own emulator account) and
 * `usersPerWorkspace` people in several time zones, the first an admin.
 */

export interface BenchWorkspace {
  teamId: string;
  channelId: string;
  botToken: string;
  users: string[];
  admins: string[];
  /** The account's asset ids and top-level groups, and scanner ids (for filters and buttons). */
  assets: { id: string; name: string }[];
  groups: string[];
  scanners: { id: string; name: string }[];
}

export interface World {
  redis: PrivateRedis;
  emulator: Emulator;
  slack: SlackStandIn;
  workspaces: BenchWorkspace[];
  /** Environment of the product's processes (PORT and HEALTH_PORT are added per process). */
  env: Record<string, string>;
  /** Forgets what the app caches in Redis (users, insights, filter lists, unfurls…), keeping installs and keys. */
  flushCaches(): Promise<number>;
  /** CPU ms the Redis server has used so far (its INFO, all its threads). */
  redisCpuMs(): Promise<number>;
  close(): Promise<void>;
}

const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "America/Los_Angeles"];
const CLIENT_ID = "1111111111.2222222222";

const pad = (n: number, width: number) => String(n).padStart(width, "0");

function seedOf(i: number, users: number): WorkspaceSeed {
  const teamId = `TB${pad(i, 7)}`;
  return {
    teamId,
    name: `Bench ${i}`,
    domain: `bench-${i}`,
    enterprise: null,
    botToken: `xoxb-bench-${pad(i, 7)}-standin`,
    botUserId: `UBOT${pad(i, 6)}`,
    botId: `BBOT${pad(i, 6)}`,
    installerUserId: `UB${pad(i, 5)}U000`,
    users: Array.from({ length: users }, (_, u) => ({
      id: `UB${pad(i, 5)}U${pad(u, 3)}`,
      name: `user${u}`,
      tz: ZONES[(i + u) % ZONES.length],
      isAdmin: u === 0,
    })),
    channels: [{ id: `CB${pad(i, 7)}`, name: "general" }],
  };
}

/** The installation the install flow would store for a seeded workspace (its bot, installed by its installer). */
export function installationOf(seed: WorkspaceSeed): Installation {
  return {
    team: { id: seed.teamId, name: seed.name },
    enterprise: undefined,
    user: { id: seed.installerUserId as string, token: undefined, scopes: undefined },
    bot: {
      id: seed.botId as string,
      userId: seed.botUserId as string,
      token: seed.botToken,
      scopes: ["commands", "chat:write", "users:read", "channels:read", "im:write"],
    },
    tokenType: "bot",
    isEnterpriseInstall: false,
    appId: "A0INSIGHTS",
    authVersion: "v2",
  };
}

/**
 * Keys the app caches in Redis (src/store/keys.ts names them: users, channels and DM channels, insights
 * replies and what derives from them, unfurls, introspection, and the drivers results an account's
 * digests share); installations, API keys and subscriptions are not among them. (Before 2026-11-28
 * 17:03 the drivers results, channels and DM channels were kept across the ack section's modes, so
 * every mode after the first found its drivers computed.)
 */
export const CACHE_KEY = /\}:[^:]+:(user|chan|dm|insights|unfurl|introspection)(:|$)|:drivers:\{a:/;

async function flush(redis: RedisClient): Promise<number> {
  let n = 0;
  for await (const batch of scanKeys(redis, "*")) {
    const doomed = batch.filter((k) => CACHE_KEY.test(k));
    if (doomed.length > 0) n += await redis.del(...doomed);
  }
  return n;
}

/** Every tenth workspace's account is a large one: its asset menus are searches (type-ahead). */
const LARGE_EVERY = 10;
const LARGE_ASSETS = 5_000;

export async function startWorld(o: { workspaces: number; usersPerWorkspace: number }): Promise<World> {
  const redis = await startPrivateRedis();
  const seeds = Array.from({ length: o.workspaces }, (_, i) => seedOf(i + 1, o.usersPerWorkspace));
  const apiKeys = seeds.map((s) => `bench-key-${s.teamId.toLowerCase()}`);
  const large = (i: number) => i % LARGE_EVERY === LARGE_EVERY - 1;
  const emulator = await startEmulator({
    port: 0,
    apiKeys: apiKeys.filter((_, i) => !large(i)),
    accounts: apiKeys.filter((_, i) => large(i)).map((apiKey) => ({ apiKey, assetCount: LARGE_ASSETS })),
  });
  const slack = await startSlackStandIn({
    signingSecret: SANDBOX_SIGNING_SECRET,
    appUrl: "http://127.0.0.1:9/",
    workspaces: seeds,
    oauth: { clientId: CLIENT_ID, clientSecret: "bench-client-secret" },
    // Answers go to response_urls; the few posts (Why? in a thread, confirmations) are not paced here.
    rateLimit: { enabled: false },
  });
  const keyring = formatKeyring(generateKeyring(1));
  const client = connectRedis(redis.url, silentLogger());
  const ring = parseKeyring(keyring);
  const installs = createInstallationStore({ redis: client, keyring: ring });
  const keys = createApiKeyStore({ redis: client, keyring: ring });
  const workspaces: BenchWorkspace[] = [];
  const today = utcToday();
  for (const [i, seed] of seeds.entries()) {
    await installs.storeInstallation(installationOf(seed));
    const apiKey = apiKeys[i] as string;
    await keys.save({ teamId: seed.teamId }, apiKey, {
      savedBy: seed.installerUserId as string,
      savedAt: new Date().toISOString(),
    });
    const account = accountFor(apiKey);
    if (!account) throw new Error(`the emulator has no account for ${apiKey}`);
    // The stand-in's own day sums, computed before any mode runs: otherwise the first mode measured
    // (`start`) shares the two cores with the emulator's warm-up, which the later modes find done. A
    // year and a month back covers every range of the mix, its previous period and the drivers' reach.
    warmCounts(account, addDays(today, -400), today);
    const assets = account.assets.map((a) => ({ id: a.value, name: a.displayValue }));
    const users = (seed.users ?? []).map((u) => u.id);
    workspaces.push({
      teamId: seed.teamId,
      channelId: (seed.channels ?? [])[0]?.id as string,
      botToken: seed.botToken,
      users,
      admins: (seed.users ?? []).filter((u) => u.isAdmin).map((u) => u.id),
      assets,
      groups: [...new Set(assets.map((a) => a.name.split(" / ")[0] as string))],
      scanners: account.scanners.map((s) => ({ id: s.value, name: s.displayValue })),
    });
  }
  const env: Record<string, string> = {
    REDIS_URL: redis.url,
    ENCRYPTION_KEYS: keyring,
    ANALYTICS_GRAPHQL_URL: emulator.graphqlUrl,
    PLATFORM_URL: emulator.appUrl,
    SLACK_SIGNING_SECRET: SANDBOX_SIGNING_SECRET,
    SLACK_CLIENT_ID: CLIENT_ID,
    SLACK_CLIENT_SECRET: "bench-client-secret",
    SLACK_STATE_SECRET: "bench-state-secret",
    SLACK_API_URL: slack.apiUrl,
    ANALYTICS_TIMEOUT_MS: "4000",
    // Production-like logging: one JSON line per request at info, to a file.
    LOG_LEVEL: "info",
    // Charts are for scheduled digests; an on-demand digest is text.
    CHARTS: "false",
  };
  return {
    redis,
    emulator,
    slack,
    workspaces,
    env,
    flushCaches: () => flush(client),
    async redisCpuMs() {
      const info = String(await client.info("cpu"));
      const field = (name: string) => Number(new RegExp(`${name}:([0-9.]+)`).exec(info)?.[1] ?? 0);
      return (field("used_cpu_sys") + field("used_cpu_user")) * 1000;
    },
    async close() {
      client.disconnect();
      await slack.close();
      await emulator.close();
      await redis.destroy();
    },
  };
}
