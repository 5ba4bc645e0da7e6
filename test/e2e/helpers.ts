import { afterAll, beforeAll, inject } from "vitest";
import { clickButton } from "../../sandbox/slack/index.ts";
import { DEMO, DEMO_API_KEY, type Stack, type StackOptions, startStack } from "../../sandbox/stack.ts";
import { ACTION, BLOCK } from "../../src/ids.ts";
import { parseRange } from "../../src/insights/ranges.ts";
import type { ResolvedRange } from "../../src/insights/types.ts";
import { builtThreadModule } from "../setup/product-build.ts";
import { testClock } from "../setup/test-clock.ts";

/** What a file's stack needs beyond the shared test Redis and the project's transport. */
export interface FileStackOptions extends Omit<StackOptions, "redisUrl"> {
  /** Connect this API key through the modal once the stack is up (`true`: the demo key). */
  connect?: string | true;
  /** Switch the stand-in's per-channel rate limit off, for files that post in bursts. */
  unlimited?: true;
}

/**
 * This test file's stack: started before its first test on the shared test Redis, under the file's
 * own key `prefix`, over the transport its vitest project runs (`http`, or `socket` for the
 * scenarios run both ways), and closed after its last test. The object is filled in by that first
 * hook, so read it in hooks and tests only (as a `let` assigned in `beforeAll` would be).
 */
/**
 * startStack for the tests: the app from the sources in this process, its digest threads (a module
 * graph of their own) from the build when it is fresh (test/setup/product-build.ts).
 */
export const startTestStack = (o: StackOptions): Promise<Stack> =>
  startStack({ threadModule: builtThreadModule(), clock: testClock(), ...o });

export function useFileStack(prefix: string, o: FileStackOptions = {}): Stack {
  const { connect: key, unlimited, ...options } = o;
  const stack = {} as Stack;
  beforeAll(async () => {
    Object.assign(
      stack,
      await startTestStack({
        redisUrl: inject("redisUrl"),
        prefix,
        transport: inject("transport"),
        awaitThreads: false,
        ...options,
      }),
    );
    if (unlimited) stack.slack.setRateLimit({ enabled: false });
    // The digest threads load while the key is connected (connecting needs none of them).
    await Promise.all([
      stack.web.ready(),
      key ? connect(stack, key === true ? DEMO_API_KEY : key) : undefined,
    ]);
  });
  afterAll(async () => stack.close?.());
  return stack;
}

/** Who sends a command or action: a user of a workspace, in one of its channels. */
export interface Caller {
  teamId: string;
  userId: string;
  channelId: string;
}

export const who = (userId: string = DEMO.member, channelId: string = DEMO.general): Caller => ({
  teamId: DEMO.teamId,
  userId,
  channelId,
});

/** The connect modal's form values holding `apiKey`. */
export const apiKeyValues = (apiKey: string) => ({
  [BLOCK.apiKey]: { [ACTION.apiKeyInput]: { type: "plain_text_input", value: apiKey } },
});

/** Runs `/insights <text>` as `caller` and waits for the first reply on its response_url. */
export async function commandAs(stack: Stack, caller: Caller, text: string) {
  const sent = await stack.slack.sendCommand({ ...caller, text });
  const reply = await stack.slack.waitFor(() => stack.slack.responses(sent.responseUrl)[0], {
    timeoutMs: 10_000,
  });
  return { sent, reply, body: reply.body as { text?: string; blocks?: unknown[]; response_type?: string } };
}

/** Runs `/insights <text>` in the demo workspace and waits for the first reply on its response_url. */
export function command(
  stack: Stack,
  text: string,
  userId: string = DEMO.member,
  channelId: string = DEMO.general,
) {
  return commandAs(stack, who(userId, channelId), text);
}

/** `caller` (an admin) runs `/insights connect`; resolves with the modal it opened in their workspace. */
export async function openConnectModal(stack: Stack, caller: Caller) {
  const before = stack.slack.views().length;
  const sent = await stack.slack.sendCommand({ ...caller, text: "connect" });
  const view = await stack.slack.waitFor(
    () =>
      stack.slack
        .views()
        .slice(before)
        .find((v) => v.type === "modal" && v.teamId === caller.teamId),
    { timeoutMs: 10_000 },
  );
  return { sent, view };
}

/** An admin connects `apiKey` through the real modal: command → views.open → view_submission. */
export async function connectAs(stack: Stack, caller: Caller, apiKey: string) {
  const { sent, view } = await openConnectModal(stack, caller);
  const submitted = await stack.slack.sendViewSubmission({
    teamId: caller.teamId,
    userId: caller.userId,
    view: { id: view.id },
    values: apiKeyValues(apiKey),
  });
  return { sent, view, submitted };
}

/** An admin of the demo workspace connects `apiKey` through the real modal. */
export function connect(stack: Stack, apiKey: string = DEMO_API_KEY, userId: string = DEMO.admin) {
  return connectAs(stack, who(userId), apiKey);
}

/** `caller` acts on a command's ephemeral reply (through its response_url), as Slack sends the click. */
export function actOnReply(
  stack: Stack,
  responseUrl: string | undefined,
  actions: unknown[],
  caller: Caller = who(),
) {
  return stack.slack.sendBlockAction({ ...caller, responseUrl, container: { is_ephemeral: true }, actions });
}

/** `caller` presses button `actionId` on the private reply a `command` or `commandAs` got. */
export function clickOnReply(
  stack: Stack,
  replied: { sent: { responseUrl?: string }; body: { blocks?: unknown[] } },
  actionId: string,
  caller: Caller = who(),
) {
  return actOnReply(stack, replied.sent.responseUrl, [clickButton(replied.body.blocks, actionId)], caller);
}

/**
 * The range the app resolved for `spec` in `tz` at some instant between `since` and now, picked by its
 * label in what the app answered: a midnight in `tz` while the test ran leaves two candidates, and the
 * answer says which one the app took. The test's numbers then follow the app's day, not the test's.
 * `since` and `clock` are the stack's clock (the calendar projects move it to a fixed day).
 */
export function rangeResolvedSince(
  spec: string,
  tz: string,
  since: Date,
  answer: unknown,
  clock: () => Date,
): ResolvedRange {
  const text = JSON.stringify(answer);
  const candidates = [since, clock()].map((now) => parseRange(spec, { now, tz }));
  return candidates.find((r) => text.includes(r.label)) ?? (candidates[0] as ResolvedRange);
}
