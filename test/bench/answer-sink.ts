import { performance } from "node:perf_hooks";
import { serveRpc } from "./child.ts";
import { startSink } from "./sink.ts";

/**
 * The response_url sink of an open-loop run, in a process of its own: the app's answers (some 300
 * a second, each a digest of several KB) then land on a loop other than the one timing the acks, as
 * they land on Slack's servers and not on the clock Slack keeps for an ack. Times are wall-clock ms
 * (`performance.timeOrigin + performance.now()`), for the sender to compare with its own.
 */

export interface Collected {
  /** The first answer of each asked seq that came, and when. */
  first: [number, number][];
  /** The asked seqs that got a "busy" note on their response_url. */
  busy: number[];
}

const sink = startSink(false);
let url: Promise<string> | undefined;

/**
 * Waits until every seq of `waitFor` has its first answer or `graceMs` has passed, then hands over
 * what came for `seqs` (a run's every request) and forgets it.
 */
async function collect(a: { seqs: number[]; waitFor: number[]; graceMs: number }): Promise<Collected> {
  const until = performance.now() + a.graceMs;
  const missing = () => a.waitFor.some((n) => !sink.first.has(n));
  while (missing() && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
  const first: [number, number][] = [];
  const busy: number[] = [];
  for (const n of a.seqs) {
    const e = sink.first.get(n);
    if (e) first.push([n, performance.timeOrigin + e.at]);
    if (sink.busy.has(n)) busy.push(n);
    sink.first.delete(n);
    sink.busy.delete(n);
  }
  return { first, busy };
}

if (process.send) {
  serveRpc({
    listen: () => {
      url ??= sink.listen();
      return url;
    },
    collect,
  });
}
