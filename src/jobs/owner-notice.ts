import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import { type DeliveryJob, type DeliveryResult, finalAttempt, later } from "./delivery-job.ts";
import { classifyFailure } from "./failures.ts";
import { ownerPausedNotice } from "./notices.ts";
import type { Pacer } from "./pacing.ts";
import type { SlackApi } from "./slack-api.ts";

/** What telling an owner needs from the delivery's dependencies. */
export interface OwnerNoticeDeps {
  store: Pick<SubscriptionStore, "get" | "markOwnerNotified" | "patch">;
  slack: Pick<SlackApi, "call">;
  tokenFor(ref: WorkspaceRef): Promise<string>;
  logger: Logger;
  pacer: Pick<Pacer, "throttled">;
}

/**
 * A `notice` job: the DM telling a paused subscription's owner why. Sent only while the subscription
 * is still paused for that reason; marked before sending so concurrent notices send one, unmarked
 * again if the send may succeed later. A 429 delays this job (and the workspace's posts), nothing else.
 */
export async function tellOwner(
  deps: OwnerNoticeDeps,
  job: DeliveryJob,
  jobToken: string | undefined,
  ref: WorkspaceRef,
  subId: string,
): Promise<DeliveryResult> {
  const sub = await deps.store.get(ref, subId);
  if (!sub) return { status: "skipped", why: "gone" };
  const reason = sub.pausedReason;
  if (sub.status !== "paused" || !reason || reason !== job.data.reason)
    return { status: "skipped", why: "notice_not_needed" };
  if (!(await deps.store.markOwnerNotified(sub.ref, sub.id, reason)))
    return { status: "skipped", why: "notice_not_needed" };
  try {
    await deps.slack.call(await deps.tokenFor(sub.ref), "chat.postMessage", {
      channel: sub.ownerId,
      ...ownerPausedNotice(sub, reason),
    });
    return { status: "notified" };
  } catch (err) {
    const f = classifyFailure(err);
    deps.logger.warn({ err, subId: sub.id, reason }, "could not DM the subscription's owner");
    // A dead token or a gone owner: nobody can be told; do not try forever.
    if (f.kind === "permanent" || f.kind === "fatal") return { status: "skipped", why: "notice_not_needed" };
    await deps.store.patch(sub, {}, ["notified"]);
    if (f.kind === "rate_limited") {
      await deps.pacer.throttled(sub.ref, "chat.postMessage", f.retryAfterMs ?? 1_000);
      return later(job, jobToken, f.retryAfterMs ?? 1_000);
    }
    if (finalAttempt(job)) return { status: "skipped", why: "notice_not_needed" };
    throw err;
  }
}
