import { reopenFailedClaim } from "../jobs/claims.ts";
import type { Logger } from "../log.ts";
import type { KeyScheme, WorkspaceRef } from "../store/keys.ts";
import { workspaceLabel } from "../store/keys.ts";
import type { RedisClient } from "../store/redis-client.ts";
import { periodTime } from "../subscriptions/period.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { Subscription } from "../subscriptions/types.ts";

/**
 * What a retry of a subscription's failed delivery does: `resume` a subscription a failure paused
 * (resume delivers the run it missed, as `/insights resume` does), or `requeue` the failed period of
 * an active one (its claim reopened, a catch-up job added). Null: nothing failed to retry (a pause
 * by a person, a delivery that went out, a failed test send, which is simply sent again).
 */
export type RetryPlan = { kind: "resume" } | { kind: "requeue"; period: string };

export function retryPlan(sub: Subscription): RetryPlan | null {
  if (sub.status === "paused")
    return sub.pausedReason && sub.pausedReason !== "paused_by_user" ? { kind: "resume" } : null;
  const last = sub.lastDelivery;
  if (last?.outcome === "failed" && periodTime(last.period)) return { kind: "requeue", period: last.period };
  return null;
}

/** Failures after which a post of the run may be in the channel, so the retry looks before it posts. */
const POST_MAY_BE_OUT = new Set(["stalled", "unverifiable"]);

export type RetryResult =
  | { ok: true; action: "resumed"; period: string | null }
  | { ok: true; action: "requeued"; period: string }
  | { ok: false; why: "gone" | "nothing_to_retry" | "changed" };

export interface RetryDeps {
  redis: RedisClient;
  keys: KeyScheme;
  subscriptions: Pick<SubscriptionService, "get" | "resume">;
  scheduler: Pick<SchedulerSync, "enqueue">;
  logger: Logger;
}

/**
 * An operator's retry of one subscription's failed delivery, audited in the logs with who asked.
 * `period` is the failed period the page showed: when the subscription has since moved on (another
 * verdict, a resume by someone else) nothing is done and `changed` says so.
 */
export async function retryDelivery(
  deps: RetryDeps,
  ref: WorkspaceRef,
  subId: string,
  period: string,
  operator: string,
): Promise<RetryResult> {
  const sub = await deps.subscriptions.get(ref, subId);
  if (!sub) return { ok: false, why: "gone" };
  const plan = retryPlan(sub);
  if (!plan) return { ok: false, why: "nothing_to_retry" };
  const audit = { audit: "ops.retry", operator, workspace: workspaceLabel(ref), subId, period };
  if (plan.kind === "resume") {
    const { catchUpPeriod } = await deps.subscriptions.resume(ref, subId);
    deps.logger.info(
      { ...audit, action: "resumed", reason: sub.pausedReason, catchUp: catchUpPeriod },
      "operator retried a delivery: subscription resumed",
    );
    return { ok: true, action: "resumed", period: catchUpPeriod };
  }
  if (plan.period !== period) return { ok: false, why: "changed" };
  const since = POST_MAY_BE_OUT.has(sub.lastDelivery?.reason ?? "")
    ? (periodTime(period)?.getTime() ?? null)
    : null;
  if (!(await reopenFailedClaim(deps, ref, subId, period, since))) return { ok: false, why: "changed" };
  await deps.scheduler.enqueue(ref, subId, sub.channelId, "catchUp", period);
  deps.logger.info(
    { ...audit, action: "requeued", reason: sub.lastDelivery?.reason },
    "operator retried a delivery: failed period queued again",
  );
  return { ok: true, action: "requeued", period };
}
