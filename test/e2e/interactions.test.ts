import { describe, expect, it } from "vitest";
import { accountFor } from "../../sandbox/analytics/index.ts";
import { findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { actOnReply, clickOnReply, command, useFileStack, who } from "./helpers.ts";

const BIG_KEY = "big-account-key";

const stack = useFileStack(`e2e-int-${process.pid}`, {
  emulator: { accounts: [{ apiKey: BIG_KEY, assetCount: 500 }] },
  unlimited: true,
  connect: BIG_KEY,
});

describe("digest controls", () => {
  it("over 100 assets the menu is type-ahead, and the options endpoint finds matching names fast", async () => {
    const { body } = await command(stack, "last7d");
    const menu = findElement(body.blocks, ACTION.assetSelect);
    expect(menu?.element.type).toBe("external_select");
    const assets = accountFor(BIG_KEY)?.assets ?? [];
    const target = assets[123];
    const query = (target?.displayValue.split(" / ")[1] ?? "").slice(0, 6);
    const res = await stack.slack.sendOptions({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      actionId: ACTION.assetSelect,
      blockId: menu?.blockId,
      value: query,
      channelId: DEMO.general,
    });
    expect(res.status).toBe(200);
    expect(res.ackMs).toBeLessThan(3000);
    const options = (res.body as { options: { text: { text: string }; value: string }[] }).options;
    const expected = assets.filter((a) => a.displayValue.toLowerCase().includes(query.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    expect(options.length).toBeGreaterThan(1);
    expect(options.map((o) => o.value)).toContain(target?.value);
    for (const o of options.slice(1)) expect(expected.map((a) => a.value)).toContain(o.value);
  });

  it("a range button redraws the same ephemeral message with that range", async () => {
    const { body, sent } = await command(stack, "last7d");
    await clickOnReply(stack, { body, sent }, "digest_range_last30d");
    const replaced = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    expect(replaced.outcome).toBe("replaced");
    const header = JSON.stringify((replaced.body as { blocks: unknown[] }).blocks[0]);
    const original = JSON.stringify((body.blocks as unknown[])[0]);
    expect(header).not.toEqual(original);
    const primary = findElement((replaced.body as { blocks: unknown[] }).blocks, "digest_range_last30d");
    expect(primary?.element.style).toBe("primary");
  });

  it("Share posts the digest in the channel as the bot, shared by the user", async () => {
    const { body, sent } = await command(stack, "last30d");
    await clickOnReply(stack, { body, sent }, ACTION.share, who(DEMO.member, DEMO.security));
    const posted = await stack.slack.waitFor(() => stack.slack.messages(DEMO.security).at(-1));
    expect(posted.user).toBe(DEMO.botUserId);
    expect(JSON.stringify(posted.blocks)).toContain(`Shared by <@${DEMO.member}>`);
    expect(findElement(posted.blocks, ACTION.share)).toBeUndefined();
    expect(posted.text).toBe(body.text);
  });

  it("Share in a channel the bot is not in says how to invite it", async () => {
    const { body, sent } = await command(stack, "last7d", DEMO.member, DEMO.noBot);
    await clickOnReply(stack, { body, sent }, ACTION.share, who(DEMO.member, DEMO.noBot));
    const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    expect(JSON.stringify(reply.body)).toContain("/invite @Insights");
    expect(stack.slack.messages(DEMO.noBot)).toEqual([]);
  });

  it("forged state in a control gets a clear message, not a crash", async () => {
    const { sent } = await command(stack, "last7d");
    await actOnReply(stack, sent.responseUrl, [
      { type: "button", action_id: "digest_range_last7d", block_id: "digest_range", value: "{not json" },
    ]);
    const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[1]);
    expect(JSON.stringify(reply.body)).toContain("out of date");
  });
});
