import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { App } from "@slack/bolt";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { freePort } from "../../sandbox/redis.ts";
import {
  type SlackStandIn,
  slackEvents,
  startSlackStandIn,
  type WorkspaceSeed,
} from "../../sandbox/slack/index.ts";
import { composeCore } from "../../src/app/compose.ts";
import type { SlackConfig } from "../../src/config.ts";
import { loadConfig } from "../../src/config.ts";
import { createInstallLayer, type InstallLayer } from "../../src/install/index.ts";
import { createSubscriptionRuntime } from "../../src/jobs/runtime.ts";
import { createLogger } from "../../src/log.ts";
import { boltLogger } from "../../src/slack/bolt-logger.ts";
import { installFrame, onCommand } from "../../src/slack/frame/index.ts";
import { lifecycleEvents } from "../../src/slack/listeners/index.ts";
import { createApiKeyStore } from "../../src/store/api-keys.ts";
import { formatKeyring, generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";
import { dumpRedis, naming } from "../setup/redis-dump.ts";

/**
 * The whole path over real HTTP: /slack/install → the stand-in's consent redirect → Bolt's
 * oauth_redirect → oauth.v2.access → our store; signed commands authorised from the store; signed
 * lifecycle events purging Redis. Ids are unique per run, so scanning the shared Redis only finds ours.
 */

const SIGNING_SECRET = "install-oauth-signing-secret";
const CLIENT_ID = "1111.2222";
const CLIENT_SECRET = "client-secret-oauth";
const id = (head: string) => `${head}${randomBytes(4).toString("hex").toUpperCase()}`;
const prefix = `t-oauth-${randomUUID().slice(0, 8)}`;
const keys = createKeyScheme({ prefix });
const keyring = generateKeyring();

function seed(teamId: string, extra: Partial<WorkspaceSeed> = {}): WorkspaceSeed {
  const admin = `U${teamId.slice(1)}`;
  return {
    teamId,
    name: `Team ${teamId}`,
    botToken: `xoxb-${teamId.toLowerCase()}-${randomBytes(6).toString("hex")}`,
    botUserId: `U0B${teamId.slice(-8)}`,
    installerUserId: admin,
    users: [{ id: admin, isAdmin: true }],
    channels: [{ id: `C${teamId.slice(1)}`, name: "general" }],
    ...extra,
  };
}

const ALPHA = seed(id("T0A"));
const BRAVO = seed(id("T0B"), { enterprise: { id: id("E0B"), name: "Bravo Grid" } });
const GRID = { id: id("E0G"), name: "Grid Org" };
const ORG = seed(id("T0G"), { enterprise: GRID, isEnterpriseInstall: true });
const ROT = seed(id("T0R"), { tokenRotation: true });
const refOf = (s: WorkspaceSeed): WorkspaceRef =>
  s.isEnterpriseInstall
    ? { enterpriseId: s.enterprise?.id, isEnterpriseInstall: true }
    : { enterpriseId: s.enterprise?.id ?? undefined, teamId: s.teamId };

let clockOffset = 0;
const now = () => Date.now() + clockOffset;
const logLines: string[] = [];
const logger = createLogger({ level: "info", destination: { write: (l: string) => void logLines.push(l) } });
// Commands from uninstalled workspaces are refused by Bolt with an authorization error, as they should be.
const errorLines = () =>
  logLines.filter((l) => /"level":"(error|fatal)"/.test(l) && !l.includes("slack_bolt_authorization_error"));
let slack: SlackStandIn;
const running: { app: App; server: Server; redis: Redis; close: () => Promise<void> }[] = [];
const seen: { app: string; teamId?: string; enterpriseId?: string; botToken?: string }[] = [];
const hookCalls: WorkspaceRef[] = [];
let main: { url: string; install: InstallLayer; redis: Redis };

/** One web process: its own Redis connection, install layer and Bolt app in OAuth mode. */
async function startApp(name: string) {
  const redis = new Redis(inject("redisUrl"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const slackConfig: SlackConfig = {
    signingSecret: SIGNING_SECRET,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    stateSecret: "state-secret-for-tests",
    apiUrl: slack.apiUrl,
  };
  const install = createInstallLayer({
    redis,
    keyring,
    prefix,
    logger,
    slack: slackConfig,
    clock: () => new Date(now()),
    removeSchedulers: async (ref) => void hookCalls.push(ref),
  });
  const app = new App({
    signingSecret: SIGNING_SECRET,
    ...install.appOptions({ redirectUri: `${url}/slack/oauth_redirect` }),
    clientOptions: { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } },
    logger: boltLogger(logger),
    // Tests wait for listeners through the HTTP answer; the listeners are the same either way.
    processBeforeResponse: true,
  });
  // The real listener frame with the app's own services; a probe subcommand records what each
  // request was authorised as, and the lifecycle listeners are the app's own.
  const runtime = createSubscriptionRuntime({ redis, queuePrefix: "{t-oauth}", logger, prefix });
  const config = loadConfig("web", {
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_CLIENT_ID: CLIENT_ID,
    SLACK_CLIENT_SECRET: CLIENT_SECRET,
    SLACK_STATE_SECRET: "state-secret-for-tests",
    REDIS_URL: inject("redisUrl"),
    ANALYTICS_GRAPHQL_URL: "http://127.0.0.1:9/analytics/graphql",
    ENCRYPTION_KEYS: formatKeyring(keyring),
  });
  const services = composeCore({
    config,
    logger,
    redis,
    keyring,
    prefix,
    subscriptions: runtime.subscriptions,
  });
  installFrame(app, services, {
    command: {
      name: "/insights",
      parse: () => ({ kind: "probe" }),
      entries: [
        onCommand({
          name: "probe",
          access: "anyone",
          run: async (ctx) =>
            void seen.push({
              app: name,
              teamId: ctx.ref.teamId,
              enterpriseId: ctx.ref.enterpriseId,
              botToken: ctx.client.token,
            }),
        }),
      ],
    },
    listeners: lifecycleEvents(install.lifecycle),
  });
  const server = (await app.start(port)) as Server;
  running.push({ app, server, redis, close: () => runtime.close() });
  return { url, install, redis };
}

/** The browser's part of an install: our install path, Slack's consent (implied), our redirect. */
async function installVia(appUrl: string, teamId: string): Promise<void> {
  const start = await fetch(`${appUrl}/slack/install`, { redirect: "manual" });
  expect(start.status).toBe(302);
  const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const consent = new URL(start.headers.get("location") as string);
  expect(`${consent.origin}${consent.pathname}`).toBe(`${slack.baseUrl}/oauth/v2/authorize`);
  consent.searchParams.set("team", teamId);
  const back = await fetch(consent, { redirect: "manual" });
  expect(back.status).toBe(302);
  const done = await fetch(back.headers.get("location") as string, {
    headers: { cookie },
    redirect: "manual",
  });
  expect(done.status).toBe(200);
}

async function command(s: WorkspaceSeed, url?: string) {
  const res = await slack.sendCommand({
    teamId: s.teamId,
    userId: s.installerUserId as string,
    channelId: `C${s.teamId.slice(1)}`,
    text: "last7d",
    ...(url ? { url: `${url}/slack/events` } : {}),
  });
  return { res, seen: seen.at(-1) };
}

async function authTeam(token: string | undefined): Promise<unknown> {
  const res = await fetch(`${slack.apiUrl}auth.test`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  return ((await res.json()) as { team_id?: string }).team_id;
}

// This file's keys only: other files share the Redis, and theirs expire or change meanwhile.
const dumpOwn = (redis: Redis) => dumpRedis(redis, `${prefix}:*`);

/** Data of every kind the app keeps for a workspace, beside its installation. */
async function seedData(redis: Redis, ref: WorkspaceRef) {
  await createApiKeyStore({ redis, keyring, prefix }).save(ref, `pk-${randomUUID()}`, {
    savedBy: "U0ADMIN01",
    savedAt: "2026-11-02T09:00:00Z",
  });
  await redis.hset(keys.subscription(ref, "sub1"), { channel: "C0GENERAL", cron: "0 9 * * 1" });
  await redis.hset(keys.subscriptionIndex(ref), "sub1", "C0GENERAL");
  await redis.hset(keys.deliveryClaims(ref, "20261102T090000Z"), "sub1", "d|1.2");
  await redis.set(keys.insightsCache(ref, "digest1"), "{}", "EX", 60);
  await redis.set(keys.user(ref, "U0MEMBER1"), "{}");
}

beforeAll(async () => {
  slack = await startSlackStandIn({
    signingSecret: SIGNING_SECRET,
    appUrl: "http://127.0.0.1:9/slack/events",
    now,
    workspaces: [ALPHA, BRAVO, ORG, ROT],
    oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, tokenTtlSec: 12 * 3600 },
    rateLimit: { enabled: false },
  });
  main = await startApp("main");
  slack.setAppUrl(`${main.url}/slack/events`);
  for (const s of [ALPHA, BRAVO, ORG]) await installVia(main.url, s.teamId);
});

afterAll(async () => {
  for (const r of running) {
    await r.app.stop();
    await r.close();
    await r.redis.quit();
  }
  await slack.close();
});

describe("OAuth install for many workspaces", () => {
  it("installs two workspaces and a Grid org; each request gets its own workspace's token", async () => {
    for (const s of [ALPHA, BRAVO, ORG]) {
      const stored = await main.install.records.read(refOf(s));
      expect(stored?.installation.isEnterpriseInstall).toBe(Boolean(s.isEnterpriseInstall));
      expect(await main.install.installerOf(refOf(s))).toBe(s.installerUserId);
      const { res, seen: got } = await command(s);
      expect(res.status).toBe(200);
      expect(got?.botToken).toBe(stored?.installation.bot?.token);
      expect(await authTeam(got?.botToken)).toBe(s.teamId);
    }
    expect(new Set(seen.map((x) => x.botToken)).size).toBe(3);
    // A workspace that never installed: authorisation fails, no listener runs.
    const before = seen.length;
    const stranger = await slack.sendCommand({
      teamId: ROT.teamId,
      userId: "U0NOBODY1",
      channelId: `C${ROT.teamId.slice(1)}`,
      text: "",
    });
    expect(seen.length).toBe(before);
    expect(stranger.status).toBe(401);
  });

  it("uninstall removes every key and value naming the workspace; the others keep working", async () => {
    await seedData(main.redis, refOf(ALPHA));
    await seedData(main.redis, refOf(BRAVO));
    const before = await dumpOwn(main.redis);
    const res = await slack.sendEvent({ teamId: ALPHA.teamId, event: slackEvents.appUninstalled() });
    expect(res.status).toBe(200);
    const after = await dumpOwn(main.redis);
    console.log(
      [
        `Redis before the uninstall of ${ALPHA.teamId} (keys of this test's prefix):`,
        ...before.filter((l) => l.startsWith(prefix)).map((l) => `  ${l.split(" ")[0]}`),
        "after:",
        ...after.filter((l) => l.startsWith(prefix)).map((l) => `  ${l.split(" ")[0]}`),
        `keys or values naming ${ALPHA.teamId}: before ${naming(before, ALPHA.teamId).length}, after ${naming(after, ALPHA.teamId).length}`,
      ].join("\n"),
    );
    expect(naming(before, ALPHA.teamId).length).toBe(7);
    expect(naming(after, ALPHA.teamId)).toEqual([]);
    expect(hookCalls).toContainEqual({ teamId: ALPHA.teamId });
    for (const line of naming(before, BRAVO.teamId).concat(naming(before, GRID.id))) {
      expect(after.map((l) => l.split(" ")[0])).toContain(line.split(" ")[0]);
    }
    for (const s of [BRAVO, ORG]) expect(await authTeam((await command(s)).seen?.botToken)).toBe(s.teamId);
    const gone = seen.length;
    await command(ALPHA);
    expect(seen.length).toBe(gone);
    expect(errorLines()).toEqual([]);
  });

  it("app_uninstalled and tokens_revoked in either order, twice, end in the same state without errors", async () => {
    const ends: string[][] = [];
    const revoked = slackEvents.tokensRevoked({ bot: [BRAVO.botUserId as string] });
    const orders = [
      [revoked, slackEvents.appUninstalled(), revoked, slackEvents.appUninstalled()],
      [slackEvents.appUninstalled(), revoked, slackEvents.appUninstalled(), revoked],
    ];
    for (const order of orders) {
      await installVia(main.url, BRAVO.teamId);
      await seedData(main.redis, refOf(BRAVO));
      expect(naming(await dumpOwn(main.redis), BRAVO.teamId).length).toBeGreaterThan(5);
      for (const event of order) {
        const res = await slack.sendEvent({ teamId: BRAVO.teamId, event });
        expect(res.status).toBe(200);
      }
      // And both at once.
      const both = await Promise.all(
        order.slice(0, 2).map((event) => slack.sendEvent({ teamId: BRAVO.teamId, event })),
      );
      expect(both.map((r) => r.status)).toEqual([200, 200]);
      ends.push(await dumpOwn(main.redis));
    }
    expect(naming(ends[0]!, BRAVO.teamId)).toEqual([]);
    expect(ends[1]).toEqual(ends[0]);
    expect(errorLines()).toEqual([]);
    expect(await authTeam((await command(ORG)).seen?.botToken)).toBe(ORG.teamId);
  });

  it("revoked user tokens drop only the user token", async () => {
    const ref = refOf(ORG);
    const stored = await main.install.records.read(ref);
    const installer = ORG.installerUserId as string;
    await main.install.records.storeInstallation({
      ...stored!.installation,
      user: { id: installer, token: "xoxp-org-user", scopes: ["identify"] },
    });
    const res = await slack.sendEvent({
      teamId: ORG.teamId,
      event: slackEvents.tokensRevoked({ oauth: [installer] }),
    });
    expect(res.status).toBe(200);
    const after = await main.install.records.read(ref);
    expect(after?.installation.user).toMatchObject({ id: installer, token: undefined });
    expect(after?.installation.bot?.token).toBe(stored?.installation.bot?.token);
    expect(await main.install.installerOf(ref)).toBe(installer);
  });

  it("remembers the installer a while, and forgets it when this process stores an installation", async () => {
    const ref = refOf(ORG);
    const stored = await main.install.records.read(ref);
    const installer = ORG.installerUserId as string;
    expect(await main.install.installerOf(ref)).toBe(installer);
    const other = { ...stored!.installation, user: { id: "U0NEWINST", token: undefined, scopes: [] } };
    // Stored by another process: the installer read here stands for its hold time.
    await main.install.records.storeInstallation(other);
    expect(await main.install.installerOf(ref)).toBe(installer);
    // Stored through this process's Bolt store (an install here): read again at once.
    await main.install.installationStore.storeInstallation(other);
    expect(await main.install.installerOf(ref)).toBe("U0NEWINST");
    await main.install.installationStore.storeInstallation(stored!.installation);
    expect(await main.install.installerOf(ref)).toBe(installer);
  });

  it("reads what it holds again behind the held answer near the end of the hold", async () => {
    const ref = refOf(ORG);
    const stored = await main.install.records.read(ref);
    const installer = ORG.installerUserId as string;
    const other = { ...stored!.installation, user: { id: "U0NEWINST", token: undefined, scopes: [] } };
    const stranger = { teamId: "T0LATECMR", enterpriseId: undefined, isEnterpriseInstall: false };
    const start = clockOffset;
    try {
      // Both read afresh now: the installer held 30 s, "not installed" 5 s.
      await main.install.installationStore.storeInstallation(stored!.installation);
      expect(await main.install.installerOf(ref)).toBe(installer);
      expect(await main.install.installed(stranger)).toBe(false);
      // Changed by another process: nothing here is forgotten.
      await main.install.records.storeInstallation(other);
      await main.install.records.storeInstallation({
        ...stored!.installation,
        team: { id: stranger.teamId, name: "Late comer" },
        enterprise: undefined,
        isEnterpriseInstall: false,
      });
      // Before the last quarter of each hold: what was held, and no read.
      clockOffset = start + 3_000;
      expect(await main.install.installed(stranger)).toBe(false);
      expect(await main.install.installerOf(ref)).toBe(installer);
      // In it: the held answer at once, and a read behind it that ends the old value before its hold does.
      clockOffset = start + 4_000;
      expect(await main.install.installed(stranger)).toBe(false);
      await vi.waitFor(async () => expect(await main.install.installed(stranger)).toBe(true));
      clockOffset = start + 23_000;
      expect(await main.install.installerOf(ref)).toBe(installer);
      await vi.waitFor(async () => expect(await main.install.installerOf(ref)).toBe("U0NEWINST"));
    } finally {
      clockOffset = start;
      await main.install.installationStore.deleteInstallation?.({ ...stranger, userId: undefined } as never);
      await main.install.installationStore.storeInstallation(stored!.installation);
    }
  });

  it("forgets that a workspace had no installation once this process stores one", async () => {
    const ref = refOf(ORG);
    const stored = await main.install.records.read(ref);
    const stranger = { teamId: "T0NEWCOMR", enterpriseId: undefined, isEnterpriseInstall: false };
    expect(await main.install.installed(stranger)).toBe(false);
    await main.install.installationStore.storeInstallation({
      ...stored!.installation,
      team: { id: stranger.teamId, name: "Newcomer" },
      enterprise: undefined,
      isEnterpriseInstall: false,
    });
    expect(await main.install.installed(stranger)).toBe(true);
    await main.install.installationStore.deleteInstallation?.({ ...stranger, userId: undefined } as never);
    expect(await main.install.installed(stranger)).toBe(false);
  });

  it("uninstalling the org-wide install purges the enterprise", async () => {
    await seedData(main.redis, refOf(ORG));
    expect(naming(await dumpOwn(main.redis), GRID.id).length).toBeGreaterThan(5);
    const res = await slack.sendEvent({ teamId: ORG.teamId, event: slackEvents.appUninstalled() });
    expect(res.status).toBe(200);
    expect(naming(await dumpOwn(main.redis), GRID.id)).toEqual([]);
    expect(hookCalls).toContainEqual({ enterpriseId: GRID.id, isEnterpriseInstall: true });
  });

  it("two web processes refreshing one rotating token make one refresh call", async () => {
    await installVia(main.url, ROT.teamId);
    const first = (await main.install.records.read(refOf(ROT)))?.installation.bot;
    expect(first?.refreshToken).toMatch(/^xoxe-/);
    const other = await startApp("other");
    clockOffset = 11 * 3600_000; // both processes now see the token within two hours of expiry
    const refreshes = () =>
      slack.calls((c) => c.method === "oauth.v2.access" && c.args.grant_type === "refresh_token");
    const [a, b] = await Promise.all([command(ROT), command(ROT, other.url)]);
    expect([a.res.status, b.res.status]).toEqual([200, 200]);
    const tokens = seen.filter((x) => x.teamId === ROT.teamId).map((x) => x.botToken);
    expect(tokens).toHaveLength(2);
    expect(refreshes()).toHaveLength(1);
    expect(new Set(tokens).size).toBe(1);
    expect(tokens[0]).not.toBe(first?.token);
    const stored = (await other.install.records.read(refOf(ROT)))?.installation.bot;
    expect(stored?.token).toBe(tokens[0]);
    expect(await authTeam(stored?.token)).toBe(ROT.teamId);
    const dump = (await dumpOwn(main.redis)).join("\n");
    for (const t of [first?.token, first?.refreshToken, stored?.token, stored?.refreshToken])
      expect(dump).not.toContain(t);
    expect(errorLines()).toEqual([]);
  });
});
