import { expect, inject } from "vitest";
import type { StoredView } from "../../sandbox/slack/index.ts";
import { slackEvents } from "../../sandbox/slack/index.ts";
import { DEMO, type Stack } from "../../sandbox/stack.ts";
import { checkView } from "../../src/blockkit/limits.ts";
import { slotOf, slotSchedulerId } from "../../src/subscriptions/slots.ts";
import type { Subscription } from "../../src/subscriptions/types.ts";
import { connect, startTestStack } from "./helpers.ts";

/** Shared set-up of the subscription e2e files: the whole app, an in-process worker with short retries, a key connected. */

export const REF = { teamId: DEMO.teamId };

export async function subscriptionStack(redisUrl: string, prefix: string): Promise<Stack> {
  const stack = await startTestStack({
    redisUrl,
    prefix,
    // The http and socket projects of vitest.config.ts run the same scenarios both ways.
    transport: inject("transport"),
    worker: {
      policy: { attempts: 2, backoffMs: 100 },
      analyticsRetry: { attempts: 1 },
      claims: { leaseMs: 3_000 },
      locks: { lockDuration: 2_000, stalledInterval: 1_000 },
    },
  });
  stack.slack.setRateLimit({ enabled: false });
  await connect(stack);
  return stack;
}

/** Everything a reply says, text and blocks. */
export const textOf = (body: unknown) => JSON.stringify(body ?? null);

/** The subscription id a confirmation names ("Id `abc123`"). */
export function idIn(body: unknown): string {
  const m = /Id `([a-z0-9]+)`/.exec(textOf(body));
  if (!m) throw new Error(`no subscription id in ${textOf(body).slice(0, 300)}`);
  return m[1] as string;
}

export async function sub(stack: Stack, id: string): Promise<Subscription | null> {
  return stack.web.deps.subscriptions.get(REF, id);
}

/** The BullMQ scheduler that fires a subscription (its time slot's), or undefined when none does. */
export async function schedulerOf(stack: Stack, id: string) {
  const queue = stack.worker?.queue;
  if (!queue) throw new Error("the stack has no worker");
  const record = await sub(stack, id);
  const slot = record ? slotOf(record) : null;
  return slot ? queue.getJobScheduler(slotSchedulerId(slot.id)) : undefined;
}

/** Opens the Home tab as `userId` and returns the published view once it changed. */
export async function openHome(stack: Stack, userId: string): Promise<StoredView> {
  const before = stack.slack.homeView(userId)?.hash;
  await stack.slack.sendEvent({
    teamId: DEMO.teamId,
    event: slackEvents.appHomeOpened(userId, `D${userId.slice(1)}`),
  });
  const home = await stack.slack.waitFor(() => {
    const v = stack.slack.homeView(userId);
    return v && v.hash !== before ? v : undefined;
  });
  expect(checkView(home.view)).toEqual([]);
  return home;
}

/** Clicks a row button of `subId` on `userId`'s Home tab and waits for the tab to be re-published. */
export async function clickHome(
  stack: Stack,
  userId: string,
  actionId: string,
  value: string,
): Promise<StoredView> {
  const home = stack.slack.homeView(userId);
  if (!home) throw new Error("no Home tab yet");
  const before = home.hash;
  await stack.slack.sendBlockAction({
    teamId: DEMO.teamId,
    userId,
    view: { id: home.id },
    actions: [
      {
        type: "button",
        action_id: actionId,
        block_id: "home_sub_0",
        value,
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  });
  return stack.slack.waitFor(() => {
    const v = stack.slack.homeView(userId);
    return v && v.hash !== before ? v : undefined;
  });
}

export const homeText = (v: StoredView | undefined) => JSON.stringify(v?.view.blocks ?? []);
