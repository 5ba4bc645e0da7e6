import { SANDBOX_SIGNING_SECRET } from "../../../sandbox/stack.ts";
import type { Child } from "../child.ts";
import type { OpenLoopArgs, OpenLoopResult } from "../slash-sender.ts";
import { quantile } from "../stats.ts";
import { cpuMs, type Proc } from "./procs.ts";
import type { RequestSpec } from "./requests.ts";

/**
 * The sender's arguments for a window of `requests` (from `offset`) at `rate` to a process's Slack
 * endpoint. Bare Bolt answers nothing on response_url; the app's windows wait for every answer, so
 * each starts with no work left over from the one before.
 */
export function windowArgs(
  target: Proc,
  o: { rate: number; durationMs: number; requests: RequestSpec[]; offset: number; answers: boolean },
): OpenLoopArgs {
  return {
    url: `http://127.0.0.1:${target.port}/slack/events`,
    secret: SANDBOX_SIGNING_SECRET,
    teamId: "",
    userId: "",
    channelId: "",
    text: "",
    rate: o.rate,
    durationMs: o.durationMs,
    requests: o.requests,
    offset: o.offset,
    replyGraceMs: o.answers ? 60_000 : 0,
  };
}

/**
 * Windows of a mix to processes (web, `start` or bare Bolt), each target walking the mix from where
 * its last window left off: the sender's result and the target's CPU per request (every thread).
 */
export function windowsOf(sender: Child, requests: RequestSpec[]) {
  const offsets = new Map<Proc, number>();
  return async (target: Proc, rate: number, durationMs: number) => {
    const cpu0 = cpuMs(target.pid);
    const offset = offsets.get(target) ?? 0;
    const answers = target.name !== "bare-bolt";
    const result = await sender.call<OpenLoopResult>(
      "openLoop",
      windowArgs(target, { rate, durationMs, requests, offset, answers }),
    );
    offsets.set(target, (offset + result.sent) % requests.length);
    return { result, cpuMsPerRequest: (cpuMs(target.pid) - cpu0) / Math.max(1, result.sent) };
  };
}

/**
 * Each kind of request's ack p99 over windows: `add` a window's result, then `medians` gives per kind
 * (most sent first) how many were sent and the median of its windows' p99s — a rare kind's p99 in one
 * 3 s window is its slowest one or two requests, so it is read over several.
 */
export function kindTails() {
  const kinds = new Map<string, { sent: number; p99s: number[] }>();
  return {
    add(result: Pick<OpenLoopResult, "byLabel">): void {
      for (const [label, k] of Object.entries(result.byLabel)) {
        const own = kinds.get(label) ?? { sent: 0, p99s: [] };
        own.sent += k.sent;
        own.p99s.push(k.ackMs.p99);
        kinds.set(label, own);
      }
    },
    medians(): { label: string; sent: number; p99: number }[] {
      return [...kinds.entries()]
        .sort((x, y) => y[1].sent - x[1].sent)
        .map(([label, k]) => ({ label, sent: k.sent, p99: quantile(k.p99s, 0.5) }));
    },
  };
}
