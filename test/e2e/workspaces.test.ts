import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_API_KEY, SECOND_API_KEY } from "../../sandbox/analytics/index.ts";
import { slackEvents } from "../../sandbox/slack/index.ts";
import type { WorkspaceSeed } from "../../sandbox/slack/types.ts";
import { installViaOAuth, type Stack, startStack } from "../../sandbox/stack.ts";
import { ACTION, BLOCK } from "../../src/ids.ts";
import { scanKeys } from "../../src/store/scan.ts";

const GRID_KEY = "grid-org-analytics-key";
const prefix = `e2e-ws-${process.pid}`;

function seed(teamId: string, extra: Partial<WorkspaceSeed> = {}): WorkspaceSeed {
  return {
    teamId,
    name: `Team ${teamId}`,
    botToken: `xoxb-${teamId.toLowerCase()}-e2e`,
    botUserId: `UB${teamId.slice(2)}`,
    installerUserId: `UA${teamId.slice(2)}`,
    users: [
      { id: `UA${teamId.slice(2)}`, name: "admin", tz: "UTC", isAdmin: true },
      { id: `UM${teamId.slice(2)}`, name: "member", tz: "UTC" },
    ],
    channels: [{ id: `C${teamId.slice(1)}`, name: "general" }],
    ...extra,
  };
}
const ALPHA = seed("T0ALPHA01");
const BRAVO = seed("T0BRAVO01", { enterprise: { id: "E0BRAVO01", name: "Bravo Grid" } });
const ORG = seed("T0GRID001", {
  enterprise: { id: "E0GRID001", name: "Grid Org" },
  isEnterpriseInstall: true,
});
const KEYS = new Map([
  [ALPHA.teamId, DEMO_API_KEY],
  [BRAVO.teamId, SECOND_API_KEY],
  [ORG.teamId, GRID_KEY],
]);
const admin = (s: WorkspaceSeed) => s.installerUserId as string;
const member = (s: WorkspaceSeed) => `UM${s.teamId.slice(2)}`;
const channel = (s: WorkspaceSeed) => `C${s.teamId.slice(1)}`;

let stack: Stack;

async function digestText(s: WorkspaceSeed, text = "last30d"): Promise<string> {
  const sent = await stack.slack.sendCommand({
    teamId: s.teamId,
    userId: member(s),
    channelId: channel(s),
    text,
  });
  const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0], {
    timeoutMs: 10_000,
  });
  return String((reply.body as { text?: string }).text);
}

async function connectKey(s: WorkspaceSeed, apiKey: string) {
  const before = stack.slack.views().length;
  await stack.slack.sendCommand({
    teamId: s.teamId,
    userId: admin(s),
    channelId: channel(s),
    text: "connect",
  });
  const view = await stack.slack.waitFor(() =>
    stack.slack
      .views()
      .slice(before)
      .find((v) => v.teamId === s.teamId),
  );
  const res = await stack.slack.sendViewSubmission({
    teamId: s.teamId,
    userId: admin(s),
    view: { id: view.id },
    values: { [BLOCK.apiKey]: { [ACTION.apiKeyInput]: { type: "plain_text_input", value: apiKey } } },
  });
  expect((res.body as { response_action?: string } | undefined)?.response_action ?? "clear").toBe("clear");
}

async function valueAt(key: string): Promise<string> {
  const type = await stack.redis.type(key);
  if (type === "string") return String(await stack.redis.get(key));
  if (type === "hash") return JSON.stringify(await stack.redis.hgetall(key));
  if (type === "set") return JSON.stringify(await stack.redis.smembers(key));
  if (type === "zset") return JSON.stringify(await stack.redis.zrange(key, 0, "-1"));
  if (type === "list") return JSON.stringify(await stack.redis.lrange(key, 0, -1));
  return "";
}

/**
 * Keys anywhere in Redis whose name holds `text` (filtered by the server, so other test files' keys
 * cost nothing), plus keys of this stack (its prefix and its queue) whose value holds it.
 */
async function redisNaming(text: string): Promise<string[]> {
  const hits = new Set<string>();
  for await (const batch of scanKeys(stack.redis, `*${text}*`)) for (const key of batch) hits.add(key);
  for (const pattern of [`${prefix}:*`, `*${stack.queueName}*`]) {
    for await (const batch of scanKeys(stack.redis, pattern)) {
      for (const key of batch) if ((await valueAt(key)).includes(text)) hits.add(key);
    }
  }
  return [...hits];
}

beforeAll(async () => {
  stack = await startStack({
    redisUrl: inject("redisUrl"),
    prefix,
    oauth: true,
    emulator: { accounts: [{ apiKey: GRID_KEY, assetCount: 12 }] },
    slack: { workspaces: [ALPHA, BRAVO, ORG] },
  });
  for (const s of [ALPHA, BRAVO, ORG]) await installViaOAuth(stack, s.teamId);
  for (const s of [ALPHA, BRAVO, ORG]) await connectKey(s, KEYS.get(s.teamId) as string);
});
afterAll(async () => stack?.close());

describe("many workspaces through OAuth, with the real app", () => {
  it("each workspace sees only its own key's data", async () => {
    const texts = await Promise.all([ALPHA, BRAVO, ORG].map((s) => digestText(s)));
    for (const t of texts) expect(t).toMatch(/findings/);
    expect(new Set(texts).size).toBe(3);
    const installers = await Promise.all(
      [{ teamId: ALPHA.teamId }, { enterpriseId: "E0BRAVO01", teamId: BRAVO.teamId }].map((ref) =>
        stack.web.deps.installerOf(ref),
      ),
    );
    expect(installers).toEqual([admin(ALPHA), admin(BRAVO)]);
  });

  it("uninstalling one leaves nothing in Redis that names it; the others still answer", async () => {
    const before = await redisNaming(ALPHA.teamId);
    expect(before.length).toBeGreaterThan(0);
    const others = [...(await redisNaming(BRAVO.teamId)), ...(await redisNaming("E0GRID001"))];
    const res = await stack.slack.sendEvent({ teamId: ALPHA.teamId, event: slackEvents.appUninstalled() });
    expect(res.status).toBe(200);
    await stack.slack.waitFor(async () => (await redisNaming(ALPHA.teamId)).length === 0, {
      timeoutMs: 10_000,
    });
    // Both events, either order, again: same end state, no error.
    for (const event of [
      slackEvents.tokensRevoked({ bot: [ALPHA.botUserId as string] }),
      slackEvents.appUninstalled(),
    ]) {
      expect((await stack.slack.sendEvent({ teamId: ALPHA.teamId, event })).status).toBe(200);
    }
    expect(await redisNaming(ALPHA.teamId)).toEqual([]);
    const othersAfter = [...(await redisNaming(BRAVO.teamId)), ...(await redisNaming("E0GRID001"))];
    expect(othersAfter).toEqual(expect.arrayContaining(others.filter((k) => !k.includes(":insights:"))));
    console.info(
      `Redis keys naming ${ALPHA.teamId}: before uninstall ${JSON.stringify(before.sort())}; after: []`,
    );
    for (const s of [BRAVO, ORG]) expect(await digestText(s, "last7d")).toMatch(/findings/);
    expect(
      stack.logLines.filter((l) => /"level":"(error|fatal)"/.test(l) && !l.includes("authorization")),
    ).toEqual([]);
  });
});
