import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { clickButton, findElement } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { ACTION } from "../../src/ids.ts";
import { askInDm, dmOf } from "./ask-helpers.ts";
import { REF, subscriptionStack } from "./subscriptions-helpers.ts";

/**
 * A digest or alert a question proposes for an asset group (`payments/*`) keeps the group: each run
 * asks for the group's assets of its day, and a group that is gone is said (when the proposal is
 * confirmed, and at a run), never dropped from the numbers without a word.
 */

let stack: Stack;
beforeAll(async () => {
  stack = await subscriptionStack(inject("redisUrl"), `e2e-ask-groups-${process.pid}`);
});
afterAll(async () => stack?.close());

const DELIVERY_MS = 20_000;
type Reply = Awaited<ReturnType<typeof askInDm>>["reply"];

async function confirm(channelId: string, reply: Reply) {
  const pressed = await stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId: DEMO.member,
    channelId,
    message: { ts: reply.ts },
    actions: [clickButton(reply.blocks, ACTION.askConfirm)],
  });
  expect(pressed.status).toBe(200);
}

const mine = async (time: string) =>
  (await stack.web.deps.subscriptions.list(REF)).filter((s) => s.ownerId === DEMO.member && s.time === time);

const subWhen = (
  id: string,
  ok: (s: NonNullable<Awaited<ReturnType<typeof stack.web.deps.subscriptions.get>>>) => boolean,
) =>
  stack.slack.waitFor(
    async () => {
      const s = await stack.web.deps.subscriptions.get(REF, id);
      return s && ok(s) ? s : undefined;
    },
    { timeoutMs: DELIVERY_MS },
  );

describe("a proposal for an asset group", () => {
  it("is kept as the group and resolved at each run; a group gone by a run pauses it and says which", async () => {
    const { posted, reply } = await askInDm(stack, "send me violations for payments every Wednesday at 8");
    await confirm(posted.channelId, reply);
    const [sub] = await stack.slack.waitFor(async () => {
      const found = await mine("08:00");
      return found.length > 0 ? found : undefined;
    });
    if (!sub) throw new Error("no subscription");
    // The group itself, not the ids its assets had the day it was confirmed.
    expect(sub).toMatchObject({ assetGroups: ["payments"], assetIds: [], filterLabels: ["payments/*"] });
    // A run asks for the group's assets of its day, and the digest says it is the group's.
    await stack.web.deps.subscriptions.sendNow(REF, sub.id);
    const delivered = await subWhen(sub.id, (s) => s.lastDelivery?.outcome === "delivered");
    const digest = stack.slack
      .messages(sub.channelId)
      .find((m) => m.ts === delivered.lastDelivery?.messageTs);
    expect(JSON.stringify(digest?.blocks)).toContain("payments/*");
    // By the next run the platform has no such group (the record names one it does not have).
    await stack.web.deps.subscriptions.update(REF, sub.id, { assetGroups: ["retired-team"] });
    await stack.web.deps.subscriptions.sendNow(REF, sub.id);
    const paused = await subWhen(sub.id, (s) => s.status === "paused");
    expect(paused.pausedReason).toBe("group_gone");
    const told = await stack.slack.waitFor(
      () => stack.slack.messages(dmOf(DEMO.member)).find((m) => (m.text ?? "").includes("retired-team/*")),
      { timeoutMs: DELIVERY_MS },
    );
    expect(told.text).toContain("an asset group it is filtered to no longer exists");
  });

  it("a group gone by the time the proposal is confirmed is said, and nothing is set up", async () => {
    const { posted, reply } = await askInDm(stack, "send me violations for payments every Thursday at 6");
    const value = findElement(reply.blocks, ACTION.askConfirm)?.element.value;
    const proposal = JSON.parse(typeof value === "string" ? value : "{}") as { g?: string[] };
    expect(proposal.g).toEqual(["payments"]);
    const answeredBefore = stack.slack.responses().length;
    // The same proposal, as if the platform had since dropped one of its two groups.
    const pressed = await stack.slack.sendBlockAction({
      teamId: DEMO.teamId,
      userId: DEMO.member,
      channelId: posted.channelId,
      message: { ts: reply.ts },
      actions: [
        {
          type: "button",
          action_id: ACTION.askConfirm,
          block_id: "b",
          value: JSON.stringify({ ...proposal, g: ["payments", "retired-team"] }),
        },
      ],
    });
    expect(pressed.status).toBe(200);
    const answer = await stack.slack.waitFor(() => stack.slack.responses()[answeredBefore]);
    expect(String(answer.body?.text)).toContain('No asset group is called "retired-team" any more.');
    expect(await mine("06:00")).toEqual([]);
  });
});
