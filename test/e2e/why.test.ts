import { describe, expect, it } from "vitest";
import { clickButton, findElement } from "../../sandbox/slack/index.ts";
import { ACTION, GROUP_ACTION_PREFIX } from "../../src/ids.ts";
import { actOnReply, command, useFileStack } from "./helpers.ts";

/** Why? and the asset-group buttons through the real app: in place on a private digest, narrowing by group. */

const stack = useFileStack(`e2e-why-${process.pid}`, { unlimited: true, connect: "scenario-regression" });

async function click(blocks: unknown, actionId: string, responseUrl: string | undefined) {
  const sent = await actOnReply(stack, responseUrl, [clickButton(blocks, actionId)]);
  expect(sent.status).toBe(200);
  expect(sent.ackMs).toBeLessThan(3_000);
}

describe("Why? and the drivers", () => {
  it("Why? redraws the private digest in place with its drivers, naming the planted regression first", async () => {
    const { body, sent } = await command(stack, "last7d");
    expect(JSON.stringify(body)).not.toContain("Why it changed");
    await click(body.blocks, ACTION.explain, sent.responseUrl);
    const answer = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    expect(answer.outcome).toBe("replaced");
    const text = JSON.stringify(answer.body);
    expect(text).toContain("Why it changed");
    expect(text).toMatch(/payments\/\* \+\d+ violations/);
  });

  it("an asset-group button narrows the digest to that group; a range button keeps the group", async () => {
    const { body, sent } = await command(stack, "last7d");
    await click(body.blocks, ACTION.explain, sent.responseUrl);
    const why = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    const blocks = (why.body as { blocks: unknown[] }).blocks;
    const group = findElement(blocks, `${GROUP_ACTION_PREFIX}0`);
    expect(JSON.stringify(group?.element)).toContain("payments/*");
    await click(blocks, `${GROUP_ACTION_PREFIX}0`, sent.responseUrl);
    const narrowed = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[2]);
    expect(JSON.stringify(narrowed.body)).toContain("Assets: payments/*");
    await click((narrowed.body as { blocks: unknown[] }).blocks, "digest_range_last30d", sent.responseUrl);
    const ranged = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[3]);
    expect(JSON.stringify(ranged.body)).toContain("Assets: payments/*");
  });
});
