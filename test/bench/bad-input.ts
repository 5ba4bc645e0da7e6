import type { Stack } from "../../sandbox/stack.ts";
import { type BadSlackResult, sendBadSlack } from "./bad-slack.ts";
import type { Child } from "./child.ts";
import { distinctRanges, fuzzTexts, malformedReplies } from "./hostile.ts";
import type { ClosedLoopResult, Target } from "./slash-sender.ts";

/** Process-level failures seen in the bench process, where the app runs. */
export interface ProcessCounters {
  unhandledRejections: number;
  uncaughtExceptions: number;
}

export interface BadInputPart<T> {
  result: T;
  unhandledRejections: number;
  /** Uncaught exceptions (each would have crashed the app) plus failed health checks afterwards. */
  crashes: number;
}

export interface BadInputResult {
  fuzz: BadInputPart<ClosedLoopResult>;
  analytics: BadInputPart<ClosedLoopResult & { emulatorRequests: number }>;
  slack: BadInputPart<BadSlackResult>;
}

async function healthy(stack: Stack): Promise<boolean> {
  try {
    return (await fetch(`${stack.web.url}/healthz`, { signal: AbortSignal.timeout(3_000) })).status === 200;
  } catch {
    return false;
  }
}

async function part<T>(
  stack: Stack,
  counters: ProcessCounters,
  run: () => Promise<T>,
): Promise<BadInputPart<T>> {
  const before = { ...counters };
  const result = await run();
  const down = (await healthy(stack)) ? 0 : 1;
  return {
    result,
    unhandledRejections: counters.unhandledRejections - before.unhandledRejections,
    crashes: counters.uncaughtExceptions - before.uncaughtExceptions + down,
  };
}

/**
 * The bad-input section: fuzzed slash texts, malformed analytics replies through the real client,
 * and malformed or forged Slack requests, against the app in this process.
 */
export async function measureBadInput(o: {
  stack: Stack;
  sender: Child;
  target: Target;
  counters: ProcessCounters;
  fuzzCount: number;
  analyticsCount: number;
  slackCount: number;
}): Promise<BadInputResult> {
  const { stack, sender, target, counters } = o;
  const fuzz = await part(stack, counters, () =>
    sender.call<ClosedLoopResult>("closedLoop", {
      ...target,
      texts: fuzzTexts(o.fuzzCount),
      concurrency: 16,
      replyTimeoutMs: 10_000,
    }),
  );
  const analytics = await part(stack, counters, async () => {
    stack.emulator.clearFaults();
    const before = stack.emulator.requestCount();
    for (const fault of malformedReplies(o.analyticsCount)) stack.emulator.inject(fault, 1);
    const r = await sender.call<ClosedLoopResult>("closedLoop", {
      ...target,
      texts: distinctRanges(o.analyticsCount),
      concurrency: 8,
      replyTimeoutMs: 15_000,
    });
    const emulatorRequests = stack.emulator.requestCount() - before;
    stack.emulator.clearFaults();
    return { ...r, emulatorRequests };
  });
  const slack = await part(stack, counters, () =>
    sendBadSlack({ url: target.url, secret: target.secret, n: o.slackCount, team: target }),
  );
  return { fuzz, analytics, slack };
}
