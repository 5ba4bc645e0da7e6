import { describe, expect, it } from "vitest";
import { accountFor } from "../../sandbox/analytics/index.ts";
import { chooseOption, clickButton, findElement } from "../../sandbox/slack/index.ts";
import { DEMO, DEMO_API_KEY } from "../../sandbox/stack.ts";
import { ACTION, GROUP_ACTION_PREFIX, RANGE_PRESETS } from "../../src/ids.ts";
import { actOnReply, command, useFileStack, who } from "./helpers.ts";

/**
 * DIGEST_ACCESS=admins applies to every entry of a digest, not only to the slash command: the
 * listener frame checks the level before any handler runs. A member pressing each control of an
 * admin's digest gets the refusal, and nothing is posted or computed for them.
 */

const stack = useFileStack(`e2e-access-${process.pid}`, {
  env: { DIGEST_ACCESS: "admins" },
  unlimited: true,
  connect: true,
});

const REFUSAL = "Digests are limited to workspace admins";

/** A member acts on the admin's digest; returns what the member was told and what was posted. */
async function memberActs(actions: unknown[], blocksTs: { blocks: unknown[] }) {
  const postsBefore = stack.slack.calls({ method: "chat.postMessage" }).length;
  const analyticsBefore = stack.emulator.requestCount();
  const sent = await stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    channelId: DEMO.general,
    container: { is_ephemeral: true },
    actions,
  });
  expect(sent.status).toBe(200);
  const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0]);
  return {
    text: JSON.stringify(reply.body),
    posts: stack.slack.calls({ method: "chat.postMessage" }).length - postsBefore,
    analytics: stack.emulator.requestCount() - analyticsBefore,
    blocks: blocksTs.blocks,
  };
}

describe("DIGEST_ACCESS=admins through the listener frame", () => {
  it("the slash command: an admin gets the digest, a member the refusal", async () => {
    expect((await command(stack, "last7d", DEMO.admin)).body.text).toMatch(/\d findings/);
    expect(JSON.stringify((await command(stack, "last7d", DEMO.member)).body)).toContain(REFUSAL);
  });

  it("each range button, both selects and Share refuse a member; nothing is posted or queried", async () => {
    const { body } = await command(stack, "last7d", DEMO.admin);
    const blocks = body.blocks as unknown[];
    const account = accountFor(DEMO_API_KEY);
    const asset = account?.assets[0]?.value as string;
    const scanner = account?.scanners[0]?.value as string;
    const clicks = [
      ...RANGE_PRESETS.map((p) => clickButton(blocks, p.actionId)),
      chooseOption(blocks, ACTION.assetSelect, asset),
      chooseOption(blocks, ACTION.scannerSelect, scanner),
      clickButton(blocks, ACTION.share),
    ];
    expect(clicks).toHaveLength(RANGE_PRESETS.length + 3);
    for (const click of clicks) {
      const r = await memberActs([click], { blocks });
      expect(r.text, `${(click as { action_id: string }).action_id}`).toContain(REFUSAL);
      expect(r.posts).toBe(0);
      expect(r.analytics).toBe(0);
    }
  });

  it("Why?, an asset-group button and Export CSV refuse a member too; nothing is posted, uploaded or queried", async () => {
    const { body, sent } = await command(stack, "last7d", DEMO.admin);
    const blocks = body.blocks as unknown[];
    // The group buttons come with a Why? answer: the admin asks for one first (it replaces the digest).
    const why = await actOnReply(
      stack,
      sent.responseUrl,
      [clickButton(blocks, ACTION.explain)],
      who(DEMO.admin),
    );
    expect(why.status).toBe(200);
    const answer = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    const explained = (answer.body as { blocks: unknown[] }).blocks;
    expect(findElement(explained, `${GROUP_ACTION_PREFIX}0`)).toBeDefined();
    const uploadsBefore = stack.slack.calls({ method: "files.completeUploadExternal" }).length;
    for (const click of [
      clickButton(blocks, ACTION.explain),
      clickButton(explained, `${GROUP_ACTION_PREFIX}0`),
      clickButton(blocks, ACTION.exportCsv),
    ]) {
      const r = await memberActs([click], { blocks });
      expect(r.text, `${(click as { action_id: string }).action_id}`).toContain(REFUSAL);
      expect(r.posts).toBe(0);
      expect(r.analytics).toBe(0);
    }
    expect(stack.slack.calls({ method: "files.completeUploadExternal" }).length).toBe(uploadsBefore);
  });

  it("type-ahead on the asset menu gives a member no options", async () => {
    const res = await stack.slack.sendOptions({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      actionId: ACTION.assetSelect,
      value: "pay",
      channelId: DEMO.general,
    });
    expect(res.status).toBe(200);
    expect((res.body as { options?: unknown[] }).options ?? []).toEqual([]);
    const admin = await stack.slack.sendOptions({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      actionId: ACTION.assetSelect,
      value: "pay",
      channelId: DEMO.general,
    });
    expect((admin.body as { options?: unknown[] }).options?.length).toBeGreaterThan(0);
  });

  it("the same controls work for the admin (the refusal is about the person, not the control)", async () => {
    const { body } = await command(stack, "last7d", DEMO.admin);
    const sent = await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.admin,
      channelId: DEMO.general,
      container: { is_ephemeral: true },
      actions: [clickButton(body.blocks, RANGE_PRESETS[1].actionId)],
    });
    const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0]);
    expect(JSON.stringify(reply.body)).toMatch(/\d findings/);
  });
});
