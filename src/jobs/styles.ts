import { todayIn } from "../insights/dayjs.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { RunFields } from "./begin.ts";
import type { ChartOutcome, PreparedDigest } from "./chart-ready.ts";
import { type DigestPostDeps, type Placement, postDigest } from "./digest-post.ts";
import { SlackCallError } from "./slack-api.ts";

/**
 * Where a run's digest goes, by the subscription's style:
 * - post (default): a new message each run;
 * - update: the first run of a day posts, later runs of that day edit that message (chat.update),
 *   so a channel sees one digest a day that refreshes; the day is the run's, in the subscription's zone;
 * - thread: the first run posts the top message; later runs reply under it and edit it to show the
 *   latest numbers.
 * When the message to edit or reply under is gone, or Slack will not let it be edited any more, the
 * run posts a new one and later runs follow that.
 */

/** The key of an `update` message: the run's day in the subscription's zone. */
export const dayKey = (sub: Pick<Subscription, "tz">, asOf: Date) => todayIn(asOf, sub.tz).replace(/-/g, "");
const THREAD_KEY = "t";

/** Answers after which the message cannot be edited or replied under: start a new one. */
const GONE = new Set([
  "message_not_found",
  "cant_update_message",
  "edit_window_closed",
  "thread_not_found",
  "msg_too_long",
]);

const gone = (err: unknown) => err instanceof SlackCallError && GONE.has(err.slackError);

/** What this run does with the message: a new one (top level, or in a thread), or an edit. */
export function placementOf(sub: Subscription, asOf: Date): Placement {
  const m = sub.runs?.message;
  if (sub.style === "update" && m && m.key === dayKey(sub, asOf)) return { kind: "update", ts: m.ts };
  if (sub.style === "thread" && m && m.key === THREAD_KEY) return { kind: "post", threadTs: m.ts };
  return { kind: "post" };
}

/** The run fields after a new top-level message `ts` (the one later runs edit or reply under). */
export function messageFields(sub: Subscription, asOf: Date, ts: string): RunFields {
  if (sub.style === "update") return { set: { mk: dayKey(sub, asOf), mt: ts } };
  if (sub.style === "thread") return { set: { mk: THREAD_KEY, mt: ts } };
  return {};
}

export interface Placed {
  ts: string;
  chart: ChartOutcome;
  runs: RunFields;
}

/** Posts or edits the run's digest as its style says; see the module comment. */
export async function placeDigest(
  deps: Pick<DigestPostDeps, "slack" | "logger" | "renderChart" | "chartWait" | "pacer">,
  sub: Subscription,
  token: string,
  prepared: PreparedDigest,
  deliveryId: string,
  asOf: Date,
): Promise<Placed> {
  const placement = placementOf(sub, asOf);
  if (placement.kind === "post" && !placement.threadTs) {
    const posted = await postDigest(deps, sub, token, prepared, deliveryId);
    return { ts: posted.ts, chart: posted.chart, runs: messageFields(sub, asOf, posted.ts) };
  }
  try {
    const done = await postDigest(deps, sub, token, prepared, deliveryId, placement);
    if (placement.kind === "post" && placement.threadTs) {
      // The top message shows the latest numbers (as the reply went out: after a fallback, with
      // the same image); a failed edit costs only that.
      await postDigest(deps, sub, token, done.prepared, deliveryId, {
        kind: "update",
        ts: placement.threadTs,
      }).catch((err: unknown) =>
        deps.logger.warn({ err, subId: sub.id }, "could not refresh the thread's top message"),
      );
    }
    return { ts: done.ts, chart: done.chart, runs: {} };
  } catch (err) {
    if (!gone(err)) throw err;
    deps.logger.info(
      { subId: sub.id, slackError: (err as SlackCallError).slackError },
      "the message to edit or reply under is gone; posting a new one",
    );
    const posted = await postDigest(deps, sub, token, prepared, deliveryId);
    return { ts: posted.ts, chart: posted.chart, runs: messageFields(sub, asOf, posted.ts) };
  }
}
