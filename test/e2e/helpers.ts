import { clickButton } from "../../sandbox/slack/index.ts";
import { DEMO, DEMO_API_KEY, type Stack } from "../../sandbox/stack.ts";
import { ACTION, BLOCK } from "../../src/ids.ts";

export const who = (userId: string = DEMO.member, channelId: string = DEMO.general) => ({
  teamId: DEMO.teamId,
  userId,
  channelId,
});

/** Runs `/insights <text>` and waits for the first reply on its response_url. */
export async function command(
  stack: Stack,
  text: string,
  userId: string = DEMO.member,
  channelId: string = DEMO.general,
) {
  const sent = await stack.slack.sendCommand({ ...who(userId, channelId), text });
  const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0], {
    timeoutMs: 10_000,
  });
  return { sent, reply, body: reply.body as { text?: string; blocks?: unknown[]; response_type?: string } };
}

/** Clicks button `actionId` on the private reply of a `command`, as `userId` in `channelId`. */
export async function clickOn(
  stack: Stack,
  reply: { body: { blocks?: unknown[] }; sent: { responseUrl?: string } },
  actionId: string,
  userId: string = DEMO.member,
  channelId: string = DEMO.general,
) {
  return stack.slack.sendBlockAction({
    ...who(userId, channelId),
    responseUrl: reply.sent.responseUrl,
    container: { is_ephemeral: true },
    actions: [clickButton(reply.body.blocks, actionId)],
  });
}

/** An admin connects `apiKey` through the real modal: command → views.open → view_submission. */
export async function connect(stack: Stack, apiKey: string = DEMO_API_KEY, userId: string = DEMO.admin) {
  const before = stack.slack.views().length;
  const sent = await stack.slack.sendCommand({ ...who(userId), text: "connect" });
  const view = await stack.slack.waitFor(
    () =>
      stack.slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal"),
    {
      timeoutMs: 10_000,
    },
  );
  const submitted = await stack.slack.sendViewSubmission({
    teamId: DEMO.teamId,
    userId,
    view: { id: view.id },
    values: { [BLOCK.apiKey]: { [ACTION.apiKeyInput]: { type: "plain_text_input", value: apiKey } } },
  });
  return { sent, view, submitted };
}
