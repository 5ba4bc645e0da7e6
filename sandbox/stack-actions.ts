import { workspaceLabel } from "../src/store/keys.ts";
import { DEMO, type Stack } from "./stack.ts";

/**
 * What the demo and the tests do to a running stack as Slack and the scheduler would: run one check
 * of a subscription of the demo workspace, and act on a message a person sees.
 */
const REF = { teamId: DEMO.teamId };

/**
 * Runs one scheduled check of subscription `id` for `period` (what its time slot's fan-out queues)
 * and waits for its verdict; resolves with the subscription as recorded then.
 */
export async function runPeriod(
  stack: Stack,
  id: string,
  channel: string,
  period: string,
  timeoutMs = 30_000,
) {
  await stack.worker?.queue.add("catchup", { sub: `${workspaceLabel(REF)}.${id}`, period, ch: channel });
  return stack.slack.waitFor(
    async () => {
      const sub = await stack.web.deps.subscriptions.get(REF, id);
      return sub?.lastDelivery?.period === period ? sub : undefined;
    },
    { timeoutMs, what: `the run of ${period}` },
  );
}

/**
 * `userId` of the demo workspace acts on the message `ts` in `channel` as it stands now: `action`
 * builds the click from its blocks (clickButton, chooseOption, pressFeedback).
 */
export function actOnMessage(
  stack: Stack,
  userId: string,
  channel: string,
  ts: string,
  action: (blocks: unknown) => unknown,
) {
  const m = stack.slack.messages(channel).find((x) => x.ts === ts);
  if (!m) throw new Error(`no message ${ts} in ${channel}`);
  return stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId,
    channelId: channel,
    message: { ts },
    actions: [action(m.blocks)],
  });
}
