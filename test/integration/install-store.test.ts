import { randomUUID } from "node:crypto";
import type { Installation } from "@slack/bolt";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest";
import { defaultWorkspace, type SlackStandIn, startSlackStandIn } from "../../sandbox/slack/index.ts";
import {
  createInstallationStore,
  createTokenRefresher,
  createTokenRotation,
  type InstallationRecords,
  type RefreshBotToken,
  withTokenRotation,
} from "../../src/install/index.ts";
import { generateKeyring } from "../../src/store/crypto.ts";
import { createKeyScheme, type WorkspaceRef } from "../../src/store/keys.ts";

const CLIENT_ID = "1111.2222";
const CLIENT_SECRET = "client-secret-install";
const TTL_SEC = 12 * 3600;
const keyring = generateKeyring();
const prefix = `t-install-${randomUUID().slice(0, 8)}`;
const keys = createKeyScheme({ prefix });

const ALPHA: WorkspaceRef = { teamId: "T0ALPHA01" };
const BRAVO: WorkspaceRef = { enterpriseId: "E0GRID001", teamId: "T0BRAVO01" };
const ORG: WorkspaceRef = { enterpriseId: "E0GRID001", isEnterpriseInstall: true };
const ROT: WorkspaceRef = { teamId: "T0ROTATE1" };
const query = (ref: WorkspaceRef) => ({
  enterpriseId: ref.enterpriseId,
  teamId: ref.isEnterpriseInstall ? undefined : ref.teamId,
  isEnterpriseInstall: Boolean(ref.isEnterpriseInstall),
});

let clock = Date.now();
let redis: Redis;
let slack: SlackStandIn;
let records: InstallationRecords;
const extraConnections: Redis[] = [];

function install(ref: WorkspaceRef, o: { bot: string; user: string; userToken?: string }): Installation {
  const org = Boolean(ref.isEnterpriseInstall);
  return {
    team: org ? undefined : { id: ref.teamId as string, name: "A team" },
    enterprise: ref.enterpriseId ? { id: ref.enterpriseId, name: "Grid" } : undefined,
    user: { id: o.user, token: o.userToken, scopes: o.userToken ? ["identify"] : undefined },
    bot: { id: "B0BOT0001", userId: "U0BOT0001", token: o.bot, scopes: ["commands", "chat:write"] },
    isEnterpriseInstall: org,
    authVersion: "v2",
    appId: "A0INSIGHTS",
    tokenType: "bot",
  };
}

/** Every key and value in the whole Redis, one line each (values of every type flattened). */
async function dumpRedis(conn: Redis): Promise<string[]> {
  const lines: string[] = [];
  let cursor = "0";
  do {
    const [next, page] = await conn.scan(cursor, "COUNT", 1000);
    cursor = next;
    for (const key of page) {
      const type = await conn.type(key);
      let value: unknown;
      if (type === "string") value = await conn.get(key);
      else if (type === "hash") value = await conn.hgetall(key);
      else if (type === "set") value = await conn.smembers(key);
      else if (type === "zset") value = await conn.zrange(key, 0, "-1", "WITHSCORES");
      else if (type === "list") value = await conn.lrange(key, 0, -1);
      else if (type === "stream") value = await conn.xrange(key, "-", "+");
      lines.push(`${key}\t${JSON.stringify(value)}`);
    }
  } while (cursor !== "0");
  return lines;
}

/** An install with a rotating token, exchanged at the stand-in the way Bolt's callback does it. */
async function rotatingInstall(): Promise<Installation> {
  const res = await fetch(`${slack.apiUrl}oauth.v2.access`, {
    method: "POST",
    body: new URLSearchParams({
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      code: slack.mintOAuthCode(ROT.teamId as string),
    }),
  });
  const r = (await res.json()) as Record<string, any>;
  expect(r.ok).toBe(true);
  return {
    team: r.team,
    enterprise: undefined,
    user: { id: r.authed_user.id, token: undefined, scopes: undefined },
    bot: {
      id: "B0BOTROT1",
      userId: r.bot_user_id,
      token: r.access_token,
      refreshToken: r.refresh_token,
      expiresAt: Math.floor(clock / 1000) + r.expires_in,
      scopes: String(r.scope).split(","),
    },
    isEnterpriseInstall: false,
    authVersion: "v2",
  };
}

/** The real refresher, asking the stand-in's oauth.v2.access with the test app's credentials. */
const slackRefresher = () =>
  createTokenRefresher({ slackApiUrl: slack.apiUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });

/** One "process": its own Redis connection, store and rotation. */
function processStack(o: { refresh?: RefreshBotToken; holdMs?: number } = {}) {
  const conn = new Redis(inject("redisUrl"));
  extraConnections.push(conn);
  const own = createInstallationStore({ redis: conn, keyring, prefix });
  const refresh = o.refresh ?? slackRefresher();
  const rotation = createTokenRotation({
    records: own,
    redis: conn,
    prefix,
    refresh,
    holdMs: o.holdMs,
    clock: () => new Date(clock),
  });
  return { records: own, rotation, bolt: withTokenRotation(own, rotation) };
}

const refreshCalls = () =>
  slack.calls((c) => c.method === "oauth.v2.access" && c.args.grant_type === "refresh_token");

async function authTest(token: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${slack.apiUrl}auth.test`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
  });
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  redis = new Redis(inject("redisUrl"));
  records = createInstallationStore({ redis, keyring, prefix });
  slack = await startSlackStandIn({
    signingSecret: "unused-signing-secret",
    appUrl: "http://127.0.0.1:9/slack/events",
    now: () => clock,
    workspaces: [
      defaultWorkspace({
        teamId: ROT.teamId as string,
        name: "Rotate",
        botToken: "xoxb-seed-rot",
        tokenRotation: true,
      }),
    ],
    oauth: {
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      tokenTtlSec: TTL_SEC,
      rotationGraceMs: 60_000,
    },
  });
});

afterEach(() => {
  clock = Date.now();
});

afterAll(async () => {
  await Promise.all(extraConnections.map((c) => c.quit()));
  await redis.quit();
  await slack.close();
});

describe("installation store", () => {
  it("keeps two workspaces and an org-wide install apart", async () => {
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-alpha-1", user: "U0ALPHA01" }));
    await records.storeInstallation(install(BRAVO, { bot: "xoxb-bravo-1", user: "U0BRAVO01" }));
    await records.storeInstallation(install(ORG, { bot: "xoxb-org-1", user: "W0ORGADM1" }));
    expect((await records.fetchInstallation(query(ALPHA))).bot?.token).toBe("xoxb-alpha-1");
    expect((await records.fetchInstallation(query(BRAVO))).bot?.token).toBe("xoxb-bravo-1");
    // Any workspace of the org reads the org-wide record.
    const fromOrgTeam = await records.fetchInstallation({
      enterpriseId: "E0GRID001",
      teamId: "T0ORGTEAM" as never,
      isEnterpriseInstall: true,
    });
    expect(fromOrgTeam.bot?.token).toBe("xoxb-org-1");
    expect(fromOrgTeam.team).toBeUndefined();
    expect(await records.installerOf(ALPHA)).toBe("U0ALPHA01");
    expect(await records.installerOf(ORG)).toBe("W0ORGADM1");
    expect(await records.installerOf({ teamId: "T0NOBODY1" })).toBeUndefined();
    await expect(records.fetchInstallation(query({ teamId: "T0NOBODY1" }))).rejects.toMatchObject({
      code: "installation_not_found",
    });
  });

  it("fails to open a token envelope copied to another workspace", async () => {
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-alpha-2", user: "U0ALPHA01" }));
    await records.storeInstallation(install(BRAVO, { bot: "xoxb-bravo-2", user: "U0BRAVO01" }));
    const envelope = await redis.hget(keys.installation(ALPHA), "enc:bot_token");
    expect(envelope).toMatch(/^v1\./);
    await redis.hset(keys.installation(BRAVO), "enc:bot_token", envelope as string);
    await expect(records.fetchInstallation(query(BRAVO))).rejects.toMatchObject({ code: "decrypt_failed" });
    // The whole hash copied is no better: AAD and recorded ids both name Alpha.
    await redis.copy(keys.installation(ALPHA), keys.installation(ORG), "REPLACE");
    await expect(records.fetchInstallation(query(ORG))).rejects.toMatchObject({ code: "decrypt_failed" });
  });

  it("never writes a plaintext token to Redis", async () => {
    const secrets = [`xoxb-plain-${randomUUID()}`, `xoxp-user-${randomUUID()}`];
    await records.storeInstallation(
      install(ALPHA, { bot: secrets[0]!, user: "U0ALPHA01", userToken: secrets[1] }),
    );
    expect((await records.fetchInstallation(query(ALPHA))).user.token).toBe(secrets[1]);
    const dump = (await dumpRedis(redis)).join("\n");
    expect(dump).toContain(keys.installation(ALPHA));
    for (const s of secrets) expect(dump).not.toContain(s);
  });

  it("drops only the installer's user token when user tokens are revoked", async () => {
    await records.storeInstallation(
      install(ALPHA, { bot: "xoxb-alpha-3", user: "U0ALPHA01", userToken: "xoxp-a" }),
    );
    expect(await records.removeUserToken(ALPHA, ["U0SOMEONE"])).toBe(false);
    expect((await records.fetchInstallation(query(ALPHA))).user.token).toBe("xoxp-a");
    expect(await records.removeUserToken(ALPHA, ["U0SOMEONE", "U0ALPHA01"])).toBe(true);
    const after = await records.fetchInstallation(query(ALPHA));
    expect(after.user).toMatchObject({ id: "U0ALPHA01", token: undefined });
    expect(after.bot?.token).toBe("xoxb-alpha-3");
  });

  it("writes a rotated token only at the revision it was read at", async () => {
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-alpha-4", user: "U0ALPHA01" }));
    const read = await records.read(ALPHA);
    const next = { token: "xoxe.xoxb-new", refreshToken: "xoxe-1-new", expiresAt: 2_000_000_000 };
    expect(await records.replaceBotToken(ALPHA, "stale-rev", next)).toBeNull();
    expect((await records.fetchInstallation(query(ALPHA))).bot?.token).toBe("xoxb-alpha-4");
    const rev = await records.replaceBotToken(ALPHA, read!.rev, next);
    expect(rev).toBeTruthy();
    const after = await records.read(ALPHA);
    expect(after?.rev).toBe(rev);
    expect(after?.installation.bot).toMatchObject({
      token: "xoxe.xoxb-new",
      refreshToken: "xoxe-1-new",
      expiresAt: 2_000_000_000,
    });
    // The same revision twice: the second writer lost.
    expect(await records.replaceBotToken(ALPHA, read!.rev, next)).toBeNull();
    // Gone (uninstalled): nothing is resurrected.
    await records.deleteInstallation(query(ALPHA));
    expect(await records.replaceBotToken(ALPHA, rev!, next)).toBeNull();
    expect(await redis.exists(keys.installation(ALPHA))).toBe(0);
  });
});

describe("the installation Bolt reads on every request", () => {
  const fetchBot = async (p: ReturnType<typeof processStack>, ref: WorkspaceRef) =>
    (await p.bolt.fetchInstallation(query(ref))).bot?.token;

  it("is remembered for its hold time, then read again; storing or deleting through it forgets at once", async () => {
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-held-1", user: "U0ALPHA01" }));
    const p = processStack();
    expect(await fetchBot(p, ALPHA)).toBe("xoxb-held-1");
    // Another process reinstalls: this one keeps what it read for the hold time, then reads again.
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-held-2", user: "U0ALPHA01" }));
    expect(await fetchBot(p, ALPHA)).toBe("xoxb-held-1");
    clock += 30_001;
    expect(await fetchBot(p, ALPHA)).toBe("xoxb-held-2");
    // Stored or deleted here: the next read is the new state, with no wait.
    await p.bolt.storeInstallation(install(ALPHA, { bot: "xoxb-held-3", user: "U0ALPHA01" }));
    expect(await fetchBot(p, ALPHA)).toBe("xoxb-held-3");
    await p.bolt.deleteInstallation?.(query(ALPHA));
    await expect(p.bolt.fetchInstallation(query(ALPHA))).rejects.toMatchObject({
      code: "installation_not_found",
    });
    // A workspace not installed is not remembered as such.
    await records.storeInstallation(install(ALPHA, { bot: "xoxb-held-4", user: "U0ALPHA01" }));
    expect(await fetchBot(p, ALPHA)).toBe("xoxb-held-4");
    // Other suites look for keys naming this team in the shared Redis: leave none.
    await records.deleteInstallation(query(ALPHA));
  });

  it("is never held past the point its token is due for a refresh", async () => {
    const first = await rotatingInstall();
    await records.storeInstallation(first);
    const p = processStack({ holdMs: 24 * 3600_000 });
    expect(await fetchBot(p, ROT)).toBe(first.bot?.token);
    const before = refreshCalls().length;
    clock += 10 * 3600_000 + 1_000; // the token now expires within two hours
    const next = await fetchBot(p, ROT);
    expect(refreshCalls().length - before).toBe(1);
    expect(next).not.toBe(first.bot?.token);
    expect(await authTest(next as string)).toMatchObject({ ok: true, team_id: ROT.teamId });
  });
});

describe("token rotation", () => {
  it("two processes refreshing at once make one refresh call and store a valid token", async () => {
    const first = await rotatingInstall();
    await records.storeInstallation(first);
    const a = processStack();
    const b = processStack();
    clock += 11 * 3600_000; // within two hours of expiry
    const before = refreshCalls().length;
    const [ia, ib] = await Promise.all([
      a.bolt.fetchInstallation(query(ROT)),
      b.bolt.fetchInstallation(query(ROT)),
    ]);
    expect(refreshCalls().length - before).toBe(1);
    expect(ia.bot?.token).toBe(ib.bot?.token);
    expect(ia.bot?.token).not.toBe(first.bot?.token);
    expect(ia.bot?.refreshToken).toBeUndefined(); // Bolt never sees one, so never refreshes unlocked
    const stored = await records.read(ROT);
    expect(stored?.installation.bot?.token).toBe(ia.bot?.token);
    expect(stored?.installation.bot?.expiresAt).toBe(Math.floor(clock / 1000) + TTL_SEC);
    expect(await authTest(stored!.installation.bot!.token)).toMatchObject({ ok: true, team_id: ROT.teamId });
    // Fresh now: more fetches make no more calls.
    await Promise.all([a.rotation.botToken(ROT), b.rotation.botToken(ROT)]);
    expect(refreshCalls().length - before).toBe(1);
    const dump = (await dumpRedis(redis)).join("\n");
    for (const t of [first.bot!.token, first.bot!.refreshToken!, stored!.installation.bot!.refreshToken!])
      expect(dump).not.toContain(t);
  });

  it("leaves a token far from expiry alone", async () => {
    await records.storeInstallation(await rotatingInstall());
    const before = refreshCalls().length;
    await processStack().rotation.botToken(ROT);
    expect(refreshCalls().length).toBe(before);
  });

  it("keeps using a still-valid token when Slack refuses the refresh, and fails once it expired", async () => {
    const first = await rotatingInstall();
    await records.storeInstallation(first);
    const { rotation } = processStack();
    clock += 11 * 3600_000;
    slack.injectError("oauth.v2.access", "invalid_refresh_token");
    expect(await rotation.botToken(ROT)).toBe(first.bot?.token);
    clock += 3600_000 - 30_000; // 30 s left
    slack.injectError("oauth.v2.access", "invalid_refresh_token");
    await expect(rotation.botToken(ROT)).rejects.toMatchObject({ code: "token_expired" });
    // The stored record is untouched by the failures.
    expect((await records.read(ROT))?.installation.bot?.token).toBe(first.bot?.token);
  });

  it("does not store a refreshed token over a reinstall that happened meanwhile", async () => {
    await records.storeInstallation(await rotatingInstall());
    const real = slackRefresher();
    const seen: { reinstall?: Installation } = {};
    const { rotation } = processStack({
      refresh: async (token) => {
        const out = await real(token);
        seen.reinstall = await rotatingInstall();
        await records.storeInstallation(seen.reinstall);
        return out;
      },
    });
    clock += 11 * 3600_000;
    const got = await rotation.current(ROT);
    const reinstalled = seen.reinstall?.bot?.token;
    expect(reinstalled).toMatch(/^xoxe\.xoxb-/);
    expect(got?.bot?.token).toBe(reinstalled);
    expect((await records.read(ROT))?.installation.bot?.token).toBe(reinstalled);
  });

  it("does not bring back an installation purged during the refresh", async () => {
    await records.storeInstallation(await rotatingInstall());
    const real = slackRefresher();
    const { rotation } = processStack({
      refresh: async (token) => {
        const out = await real(token);
        await redis.del(keys.installation(ROT));
        return out;
      },
    });
    clock += 11 * 3600_000;
    expect(await rotation.current(ROT)).toBeNull();
    expect(await redis.exists(keys.installation(ROT))).toBe(0);
    await expect(rotation.botToken(ROT)).rejects.toMatchObject({ code: "installation_not_found" });
  });
});
