import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_API_KEY, SECOND_API_KEY } from "../../sandbox/analytics/index.ts";
import { slackEvents } from "../../sandbox/slack/index.ts";
import type { WorkspaceSeed } from "../../sandbox/slack/types.ts";
import { installViaOAuth } from "../../sandbox/stack.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { commandAs, connectAs, useFileStack } from "./helpers.ts";
import { admin, inSeed, member, workspaceSeed } from "./workspace-seeds.ts";

const GRID_KEY = "grid-org-analytics-key";
const prefix = `e2e-ws-${process.pid}`;

const ALPHA = workspaceSeed("T0ALPHA01");
const BRAVO = workspaceSeed("T0BRAVO01", { enterprise: { id: "E0BRAVO01", name: "Bravo Grid" } });
const ORG = workspaceSeed("T0GRID001", {
  enterprise: { id: "E0GRID001", name: "Grid Org" },
  isEnterpriseInstall: true,
});
const KEYS = new Map([
  [ALPHA.teamId, DEMO_API_KEY],
  [BRAVO.teamId, SECOND_API_KEY],
  [ORG.teamId, GRID_KEY],
]);

async function digestText(s: WorkspaceSeed, text = "last30d"): Promise<string> {
  return String((await commandAs(stack, inSeed(s, member(s)), text)).body.text);
}

async function connectKey(s: WorkspaceSeed, apiKey: string) {
  const { submitted } = await connectAs(stack, inSeed(s), apiKey);
  expect((submitted.body as { response_action?: string } | undefined)?.response_action ?? "clear").toBe(
    "clear",
  );
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

const stack = useFileStack(prefix, {
  oauth: true,
  emulator: { accounts: [{ apiKey: GRID_KEY, assetCount: 12 }] },
  slack: { workspaces: [ALPHA, BRAVO, ORG] },
});
beforeAll(async () => {
  for (const s of [ALPHA, BRAVO, ORG]) await installViaOAuth(stack, s.teamId);
  for (const s of [ALPHA, BRAVO, ORG]) await connectKey(s, KEYS.get(s.teamId) as string);
});

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
