import { describe, expect, it } from "vitest";
import { clickButton, findElement } from "../../sandbox/slack/index.ts";
import { DEMO } from "../../sandbox/stack.ts";
import { ACTION, GROUP_ACTION_PREFIX } from "../../src/ids.ts";
import { encodeState } from "../../templates/state.ts";
import { actOnReply, command, useFileStack, who } from "./helpers.ts";

/**
 * Why? and the asset-group buttons through the real app (their work handed off the acking loop, as
 * every digest's): in place on a private digest, narrowing by group; in the thread of a message
 * everyone sees, also when pressed on a reply; in the Messages tab from the Home tab.
 */

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

describe("Why? from every surface it can be pressed on", () => {
  /** Why? as a digest carries it: its state in the button's value. */
  const whyButton = {
    type: "button",
    action_id: ACTION.explain,
    block_id: "x",
    value: encodeState({ range: "last7d", assetIds: [], scannerIds: [] }),
  };

  /** A digest everyone in #general sees (shared from a private one), and a Why? pressed on it. */
  async function sharedDigest() {
    const { body, sent } = await command(stack, "last7d");
    await click(body.blocks, ACTION.share, sent.responseUrl);
    const shared = await stack.slack.waitFor(() =>
      stack.slack
        .messages(DEMO.general)
        .find((m) => !m.threadTs && JSON.stringify(m.blocks).includes("Shared by")),
    );
    return { shared, why: whyButton };
  }

  const repliesIn = (threadTs: string) =>
    stack.slack.messages(DEMO.general).filter((m) => m.threadTs === threadTs);

  it("on a message in a channel: the drivers go in its thread, and the message others see is not rewritten", async () => {
    const { shared, why } = await sharedDigest();
    const before = JSON.stringify(shared.blocks);
    const res = await stack.slack.sendBlockAction({
      ...who(),
      channelId: DEMO.general,
      message: { ts: shared.ts },
      actions: [why],
    });
    expect(res.status).toBe(200);
    const reply = await stack.slack.waitFor(() => repliesIn(shared.ts)[0]);
    expect(JSON.stringify(reply.blocks)).toContain("Why it changed");
    expect(JSON.stringify(stack.slack.messages(DEMO.general).find((m) => m.ts === shared.ts)?.blocks)).toBe(
      before,
    );
  });

  it("on a reply in a thread: the drivers go in that same thread, not a thread of the reply", async () => {
    const { shared, why } = await sharedDigest();
    await stack.slack.sendBlockAction({
      ...who(),
      channelId: DEMO.general,
      message: { ts: shared.ts },
      actions: [why],
    });
    const first = await stack.slack.waitFor(() => repliesIn(shared.ts)[0]);
    const res = await stack.slack.sendBlockAction({
      ...who(),
      channelId: DEMO.general,
      message: { ts: first.ts },
      actions: [why],
    });
    expect(res.status).toBe(200);
    const second = await stack.slack.waitFor(() => repliesIn(shared.ts)[1]);
    expect(second.threadTs).toBe(shared.ts);
    expect(JSON.stringify(second.blocks)).toContain("Why it changed");
    expect(repliesIn(first.ts).filter((m) => m.ts !== first.ts)).toEqual([]);
  });

  it("on the Home tab (no response_url): the answer comes in the app's Messages tab", async () => {
    await stack.slack.sendEvent({
      teamId: DEMO.teamId,
      event: { type: "app_home_opened", user: DEMO.member, channel: "D0HOME0001", tab: "home" },
    });
    const home = await stack.slack.waitFor(() => stack.slack.homeView(DEMO.member));
    const dms = () =>
      stack.slack.calls({ method: "chat.postMessage" }).filter((c) => c.args.channel === DEMO.member);
    const before = dms().length;
    const res = await stack.slack.sendBlockAction({
      ...who(),
      view: { id: home.id },
      actions: [whyButton],
    });
    expect(res.status).toBe(200);
    const dm = await stack.slack.waitFor(() => dms()[before]);
    expect(JSON.stringify(dm.args)).toContain("Why it changed");
  });
});
