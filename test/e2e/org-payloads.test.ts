import { beforeAll, describe, expect, it } from "vitest";
import { accountFor, DEMO_API_KEY, SECOND_API_KEY } from "../../sandbox/analytics/index.ts";
import { clickButton, findElement, slackEvents } from "../../sandbox/slack/index.ts";
import type { WorkspaceSeed } from "../../sandbox/slack/types.ts";
import { installViaOAuth } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { scanKeys } from "../../src/store/scan.ts";
import { actOnReply, apiKeyValues, commandAs, connectAs, openConnectModal, useFileStack } from "./helpers.ts";
import { admin, channel, inSeed, member, workspaceSeed } from "./workspace-seeds.ts";

/**
 * Payloads whose `team` is null or names another workspace, sent through the real app: an org-wide
 * (Enterprise Grid) install gets `team: null` in interactions and `team_id: null` in its event
 * authorizations; a Slack Connect user submits a view with their own workspace in `team` and the
 * installing one in `view.app_installed_team_id`; `team_access_revoked` arrives with no team at all.
 */

const GRID_KEY = "grid-org-key-payloads";
const prefix = `e2e-org-${process.pid}`;
const ENTERPRISE = { id: "E0ORGPAY1", name: "Payload Grid" };

/** Installed org-wide: one record for the whole enterprise. */
const ORG = workspaceSeed("T0ORGPAY1", { enterprise: ENTERPRISE, isEnterpriseInstall: true }, "Asia/Tokyo");
/** A workspace of the same org with an install of its own. */
const TEAM2 = workspaceSeed("T0ORGPAY2", { enterprise: ENTERPRISE }, "Asia/Tokyo");
/** An ordinary workspace whose shared channel a partner's user works in (Slack Connect). */
const ALPHA = workspaceSeed("T0CONNECT", {}, "Asia/Tokyo");

const digest = (s: WorkspaceSeed, text = "last7d") => commandAs(stack, inSeed(s, member(s)), text);

async function keysNaming(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const batch of scanKeys(stack.redis, `${prefix}:*${text}*`)) out.push(...batch);
  return out;
}

const stack = useFileStack(prefix, {
  oauth: true,
  emulator: { accounts: [{ apiKey: GRID_KEY, assetCount: 150 }] },
  slack: { workspaces: [ORG, TEAM2, ALPHA] },
  unlimited: true,
});
beforeAll(async () => {
  for (const s of [ORG, TEAM2, ALPHA]) await installViaOAuth(stack, s.teamId);
});

describe("org-wide install: interactions arrive with team: null", () => {
  it("the connect modal's view_submission stores the key for the whole org", async () => {
    const { submitted: res } = await connectAs(stack, inSeed(ORG), GRID_KEY);
    expect(res.status).toBe(200);
    const orgRef = { enterpriseId: ENTERPRISE.id, isEnterpriseInstall: true };
    expect((await stack.web.deps.apiKeys.load(orgRef))?.apiKey).toBe(GRID_KEY);
    expect(await keysNaming(ORG.teamId)).toEqual([]);
  });

  it("a range button and an asset type-ahead on the digest answer like in any workspace", async () => {
    const { sent, body } = await digest(ORG);
    expect(body.text).toMatch(/findings/);
    await actOnReply(
      stack,
      sent.responseUrl,
      [clickButton(body.blocks, "digest_range_last30d")],
      inSeed(ORG, member(ORG)),
    );
    const replaced = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    expect(replaced.outcome).toBe("replaced");
    const menu = findElement(body.blocks, ACTION.assetSelect);
    expect(menu?.element.type).toBe("external_select");
    const wanted = accountFor(GRID_KEY)?.assets[42];
    const query = (wanted?.displayValue.split(" / ")[1] ?? "").slice(0, 5);
    const res = await stack.slack.sendOptions({
      teamId: ORG.teamId,
      userId: member(ORG),
      actionId: ACTION.assetSelect,
      blockId: menu?.blockId,
      value: query,
      channelId: channel(ORG),
    });
    expect(res.status).toBe(200);
    const options = (res.body as { options: { value: string }[] }).options;
    expect(options.map((o) => o.value)).toContain(wanted?.value);
  });

  it("an event whose authorization names no team (app_home_opened) publishes the Home tab", async () => {
    const res = await stack.slack.sendEvent({
      teamId: ORG.teamId,
      event: slackEvents.appHomeOpened(member(ORG), `D${member(ORG).slice(1)}`),
    });
    expect(res.status).toBe(200);
    const home = await stack.slack.waitFor(() => stack.slack.homeView(member(ORG)));
    expect(home.teamId).toBe(ORG.teamId);
  });
});

describe("Slack Connect: a user of another workspace in a shared channel", () => {
  it("a view they submit counts for the workspace that installed the app, not theirs", async () => {
    const { view } = await openConnectModal(stack, inSeed(ALPHA));
    const res = await stack.slack.sendViewSubmission({
      teamId: ALPHA.teamId,
      userId: admin(ALPHA),
      payloadTeam: { id: "T0PARTNER", domain: "partner" },
      view: { id: view.id },
      values: apiKeyValues(DEMO_API_KEY),
    });
    expect(res.status).toBe(200);
    expect((await stack.web.deps.apiKeys.load({ teamId: ALPHA.teamId }))?.apiKey).toBe(DEMO_API_KEY);
    expect(await keysNaming("T0PARTNER")).toEqual([]);
  });
});

describe("team_access_revoked", () => {
  it("purges each workspace it names like tokens_revoked; the org's record and other workspaces stay", async () => {
    await connectAs(stack, inSeed(TEAM2), SECOND_API_KEY);
    await stack.web.deps.subscriptions.create(
      { enterpriseId: ENTERPRISE.id, teamId: TEAM2.teamId },
      { channelId: channel(TEAM2), schedule: { kind: "daily" }, tz: "UTC" },
      admin(TEAM2),
    );
    expect((await keysNaming(TEAM2.teamId)).length).toBeGreaterThan(2);
    const org = await keysNaming(`${ENTERPRISE.id}}:org`);
    const alpha = await keysNaming(ALPHA.teamId);
    expect(org.length).toBeGreaterThan(0);
    for (let delivery = 0; delivery < 2; delivery++) {
      // Sent as the org app (its authorization has team_id null), naming the workspace it lost.
      const res = await stack.slack.sendEvent({
        teamId: ORG.teamId,
        event: slackEvents.teamAccessRevoked([TEAM2.teamId]),
      });
      expect(res.status).toBe(200);
      await stack.slack.waitFor(async () => (await keysNaming(TEAM2.teamId)).length === 0, {
        timeoutMs: 10_000,
      });
    }
    expect(await keysNaming(`${ENTERPRISE.id}}:org`)).toEqual(expect.arrayContaining(org));
    expect(await keysNaming(ALPHA.teamId)).toEqual(expect.arrayContaining(alpha));
    expect((await digest(ORG, "last30d")).body.text).toMatch(/findings/);
    expect(stack.logLines.filter((l) => /"level":"(error|fatal)"/.test(l))).toEqual([]);
  });
});
