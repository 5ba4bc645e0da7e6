import { readFileSync } from "node:fs";
import type { Installation } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import type { SlackConfig } from "../../src/config.ts";
import {
  authorizationUrlFor,
  BOT_SCOPES,
  fromSealedRecord,
  oauthAppOptions,
  refOfInstallation,
  refOfQuery,
  SECRET,
  toSealedRecord,
  withoutRefreshTokens,
  withTokenRotation,
} from "../../src/install/index.ts";

const teamInstall = (): Installation => ({
  team: { id: "T0ALPHA01", name: "Alpha" },
  enterprise: undefined,
  user: { id: "U0ADA0001", token: "xoxp-user-1", scopes: ["identify"] },
  bot: {
    id: "B0BOT0001",
    userId: "U0BOT0001",
    token: "xoxe.xoxb-1-abc",
    refreshToken: "xoxe-1-def",
    expiresAt: 1_900_000_000,
    scopes: ["commands", "chat:write"],
  },
  tokenType: "bot",
  isEnterpriseInstall: false,
  appId: "A0INSIGHTS",
  authVersion: "v2",
});

const orgInstall = (): Installation => ({
  team: undefined,
  enterprise: { id: "E0GRID001", name: "Grid Org" },
  user: { id: "W0ORGADM1", token: undefined, scopes: undefined },
  bot: { id: "B0ORG0001", userId: "U0ORGBOT1", token: "xoxb-org-1", scopes: ["commands"] },
  enterpriseUrl: "https://grid.enterprise.slack.com/",
  isEnterpriseInstall: true,
  authVersion: "v2",
});

const expectCode = (fn: () => unknown, code: string) => {
  try {
    fn();
  } catch (err) {
    expect((err as { code?: string }).code).toBe(code);
    return;
  }
  throw new Error(`expected an error with code ${code}`);
};

describe("installation records", () => {
  it("seals every token and keeps the rest plain", () => {
    const record = toSealedRecord(teamInstall(), "rev-1", "2026-11-02T09:00:00.000Z");
    expect(Object.keys(record.secrets).sort()).toEqual(
      [SECRET.botRefreshToken, SECRET.botToken, SECRET.userToken].sort(),
    );
    const plain = JSON.stringify(record.fields);
    for (const secret of ["xoxe.xoxb-1-abc", "xoxe-1-def", "xoxp-user-1"])
      expect(plain).not.toContain(secret);
    expect(record.fields).toMatchObject({
      teamId: "T0ALPHA01",
      userId: "U0ADA0001",
      botExpiresAt: "1900000000",
    });
  });

  it("reads back what it wrote, for a team and an org-wide install", () => {
    const team = teamInstall();
    const back = fromSealedRecord(toSealedRecord(team, "rev-1", "2026-11-02T09:00:00.000Z"), {
      teamId: "T0ALPHA01",
      isEnterpriseInstall: false,
    });
    expect(back.rev).toBe("rev-1");
    expect(back.installation).toEqual({ ...team, user: { ...team.user } });
    const org = orgInstall();
    const orgBack = fromSealedRecord(toSealedRecord(org, "rev-2", "2026-11-02T09:00:00.000Z"), {
      enterpriseId: "E0GRID001",
      isEnterpriseInstall: true,
    });
    expect(orgBack.installation.team).toBeUndefined();
    expect(orgBack.installation.enterprise).toEqual({ id: "E0GRID001", name: "Grid Org" });
    expect(orgBack.installation.bot?.token).toBe("xoxb-org-1");
    expect(orgBack.installation.user).toEqual({ id: "W0ORGADM1", token: undefined, scopes: undefined });
  });

  it("rejects a record stored under another workspace's key", () => {
    const record = toSealedRecord(teamInstall(), "rev-1", "2026-11-02T09:00:00.000Z");
    expectCode(
      () => fromSealedRecord(record, { teamId: "T0BRAVO01", isEnterpriseInstall: false }),
      "bad_installation",
    );
    expectCode(
      () =>
        fromSealedRecord(record, {
          enterpriseId: "E0GRID001",
          teamId: "T0ALPHA01",
          isEnterpriseInstall: false,
        }),
      "bad_installation",
    );
    expectCode(
      () => fromSealedRecord(record, { enterpriseId: "T0ALPHA01", isEnterpriseInstall: true }),
      "bad_installation",
    );
  });

  it("rejects malformed fields without echoing values", () => {
    const record = toSealedRecord(teamInstall(), "rev-1", "2026-11-02T09:00:00.000Z");
    const expectAt = { teamId: "T0ALPHA01", isEnterpriseInstall: false };
    const broken = [
      { ...record, fields: { ...record.fields, botExpiresAt: "soon" } },
      { ...record, fields: { ...record.fields, schema: "9" } },
      { ...record, fields: { ...record.fields, userId: "<script>" } },
      { ...record, secrets: { ...record.secrets, bot_token: "" } },
      { ...record, fields: { ...record.fields, botId: undefined } as unknown as Record<string, string> },
    ];
    for (const r of broken) {
      try {
        fromSealedRecord(r, expectAt);
        throw new Error("accepted a broken record");
      } catch (err) {
        expect((err as { code?: string }).code).toBe("bad_installation");
        expect((err as Error).message).not.toContain("<script>");
        expect((err as Error).message).not.toContain("soon");
      }
    }
  });

  it("refuses an installation without an installing user", () => {
    const install = teamInstall();
    expectCode(
      () => toSealedRecord({ ...install, user: { ...install.user, id: "" } }, "r", "now"),
      "invalid_installation",
    );
  });
});

describe("refs", () => {
  it("keys org-wide installs by enterprise and others by team", () => {
    expect(refOfInstallation(orgInstall())).toEqual({ enterpriseId: "E0GRID001", isEnterpriseInstall: true });
    expect(refOfInstallation(teamInstall())).toEqual({ teamId: "T0ALPHA01" });
    expect(refOfInstallation({ ...teamInstall(), enterprise: { id: "E0GRID001" } })).toEqual({
      enterpriseId: "E0GRID001",
      teamId: "T0ALPHA01",
    });
  });

  it("maps a query from any workspace of an org-wide install to the enterprise", () => {
    expect(
      refOfQuery({ enterpriseId: "E0GRID001", teamId: "T0ANY0001", isEnterpriseInstall: true } as never),
    ).toEqual({
      enterpriseId: "E0GRID001",
      isEnterpriseInstall: true,
    });
    expect(refOfQuery({ enterpriseId: undefined, teamId: "T0ALPHA01", isEnterpriseInstall: false })).toEqual({
      teamId: "T0ALPHA01",
    });
  });

  it("rejects ids that cannot go into a key", () => {
    expectCode(
      () => refOfQuery({ enterpriseId: undefined, teamId: "t*", isEnterpriseInstall: false }),
      "invalid_installation",
    );
    expectCode(
      () => refOfQuery({ enterpriseId: undefined, teamId: undefined, isEnterpriseInstall: true } as never),
      "invalid_installation",
    );
  });
});

describe("Bolt view of an installation", () => {
  it("drops refresh tokens so Bolt never refreshes on its own", () => {
    const plain = withoutRefreshTokens({
      ...teamInstall(),
      user: { id: "U0ADA0001", token: "xoxp-1", refreshToken: "xoxe-u", expiresAt: 1, scopes: [] },
    });
    expect(plain.bot?.refreshToken).toBeUndefined();
    expect(plain.bot?.token).toBe("xoxe.xoxb-1-abc");
    expect(plain.user.refreshToken).toBeUndefined();
    expect(plain.user.token).toBe("xoxp-1");
  });

  it("answers a fetch from the rotation, and not_found when it has nothing", async () => {
    const records = { storeInstallation: async () => {}, deleteInstallation: async () => {} } as never;
    const answer = async (ref: { teamId?: string }) => (ref.teamId === "T0ALPHA01" ? teamInstall() : null);
    const store = withTokenRotation(records, {
      current: answer,
      recent: answer,
      forget: () => undefined,
      botToken: async () => "unused",
    });
    const got = await store.fetchInstallation({
      teamId: "T0ALPHA01",
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(got.bot?.refreshToken).toBeUndefined();
    await expect(
      store.fetchInstallation({ teamId: "T0OTHER01", enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toMatchObject({ code: "installation_not_found" });
  });
});

describe("OAuth app options", () => {
  const slack: SlackConfig = {
    clientId: "111.222",
    clientSecret: "secret",
    stateSecret: "state-secret",
    apiUrl: "http://127.0.0.1:4000/api/",
  };

  it("puts the authorize URL beside the Web API URL", () => {
    expect(authorizationUrlFor("https://slack.com/api/")).toBe("https://slack.com/oauth/v2/authorize");
    expect(authorizationUrlFor(slack.apiUrl)).toBe("http://127.0.0.1:4000/oauth/v2/authorize");
  });

  it("builds the App options for OAuth mode", () => {
    const installationStore = {
      storeInstallation: async () => {},
      fetchInstallation: async () => teamInstall(),
    };
    const options = oauthAppOptions({
      slack,
      installationStore,
      redirectUri: "https://app.example/slack/oauth_redirect",
    });
    expect(options).toMatchObject({
      clientId: "111.222",
      clientSecret: "secret",
      stateSecret: "state-secret",
      redirectUri: "https://app.example/slack/oauth_redirect",
      installerOptions: {
        installPath: "/slack/install",
        redirectUriPath: "/slack/oauth_redirect",
        directInstall: true,
        stateVerification: true,
      },
    });
    expect(options.installationStore).toBe(installationStore);
    expect(options.scopes).toEqual([...BOT_SCOPES]);
  });

  it("refuses to build without all three OAuth settings", () => {
    const installationStore = {
      storeInstallation: async () => {},
      fetchInstallation: async () => teamInstall(),
    };
    expectCode(
      () => oauthAppOptions({ slack: { ...slack, stateSecret: undefined }, installationStore }),
      "config",
    );
  });

  it("requests exactly the bot scopes the manifest declares", () => {
    const manifest = readFileSync(new URL("../../manifest.yaml", import.meta.url), "utf8");
    const block = /scopes:\n\s+bot:\n((?:\s+- .+\n)+)/.exec(manifest)?.[1] ?? "";
    const declared = block
      .split("\n")
      .map((l) => l.trim().replace(/^- /, ""))
      .filter(Boolean);
    expect(declared.length).toBeGreaterThan(0);
    expect([...declared].sort()).toEqual([...BOT_SCOPES].sort());
  });
});
