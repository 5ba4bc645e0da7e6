import { DelayedError, type Job, UnrecoverableError, Worker } from "bullmq";
import type { Logger } from "../log.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { parseSchedulerId } from "../subscriptions/ids.ts";
import { fireTimeOfJob, periodOf, periodTime } from "../subscriptions/period.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { Subscription } from "../subscriptions/types.ts";
import type { ChartOutcome } from "./chart-ready.ts";
import type { DeliveryClaims } from "./claims.ts";
import { buildDigestView, type DigestPostDeps, findPosted, postDigest } from "./digest-post.ts";
import { classifyFailure, type Failure } from "./failures.ts";
import { failureNotice, ownerPausedNotice } from "./notices.ts";
import { type DeliveryJobData, JOB_NAME } from "./queue.ts";

/** Everything the processor needs, built by the worker entry point. */
export interface DeliveryDeps extends DigestPostDeps {
  store: SubscriptionStore;
  subscriptions: Pick<SubscriptionService, "pause">;
  /** Queues the owner's DM (a `notice` job) after a pause. */
  notifier: Pick<SchedulerSync, "notifyOwner">;
  claims: DeliveryClaims;
  /** The bot token of a workspace: the configured one, or an installation-store lookup. */
  tokenFor(ref: WorkspaceRef): Promise<string>;
  /** Stops the whole queue for `ms` (Slack 429); bound to BullMQ's rate limiter by the entry point. */
  rateLimit(ms: number): Promise<void>;
  logger: Logger;
  clock: () => Date;
}

/** A job's return value (kept on completed jobs; tests and operators read it). */
export type DeliveryResult =
  | { status: "delivered"; period: string; ts: string; chart?: ChartOutcome }
  | {
      status: "skipped";
      why: "gone" | "paused" | "already_done" | "lease_lost" | "notice_not_needed";
      period?: string;
    }
  | { status: "notified" };

type DeliveryJob = Job<DeliveryJobData, DeliveryResult, string>;

/** True when BullMQ will not try this job again after a failure now. */
const finalAttempt = (job: DeliveryJob) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * The delivery processor: load the subscription, claim (subscription,
 * period), build, post, record. Exactly once: a claim is taken before any work, re-checked right
 * before the post and marked delivered right after it; duplicates and retries find it and stop.
 *
 * A worker that dies after Slack accepted chat.postMessage and before `claims.finish` reached
 * Redis leaves a pending claim whose lease runs out. Before posting, every worker notes "posting"
 * in a marker that outlives the lease; a worker that takes over and finds the marker searches the
 * channel (conversations.history with metadata) for this delivery's id, which every digest carries
 * in `metadata.event_payload.delivery = "<subId>/<period>"`, and records that post instead of
 * posting again. Without the history scope it posts (a duplicate beats a lost digest). A worker
 * stalled past its lease is caught by `confirm`, except for a stall inside the post itself.
 */
export function createDeliveryProcessor(deps: DeliveryDeps) {
  const { store, claims, logger } = deps;

  /**
   * The owner's DM, sent by `notice` jobs only, so it gets the job's retries and rate limiting.
   * Marked before sending so concurrent notices send one; unmarked again if the send may succeed later.
   */
  async function tellOwner(job: DeliveryJob, sub: Subscription, reason: string): Promise<DeliveryResult> {
    if (!(await store.markOwnerNotified(sub.ref, sub.id, reason)))
      return { status: "skipped", why: "notice_not_needed" };
    try {
      await deps.slack.call(await deps.tokenFor(sub.ref), "chat.postMessage", {
        channel: sub.ownerId,
        ...ownerPausedNotice(sub, reason),
      });
      return { status: "notified" };
    } catch (err) {
      const f = classifyFailure(err);
      logger.warn({ err, subId: sub.id, reason }, "could not DM the subscription's owner");
      // A dead token or a gone owner: nobody can be told; do not try forever.
      if (f.kind === "permanent" || f.kind === "fatal")
        return { status: "skipped", why: "notice_not_needed" };
      await store.patch(sub, {}, ["notified"]);
      if (f.kind === "rate_limited") {
        await deps.rateLimit(f.retryAfterMs ?? 1_000);
        throw Worker.RateLimitError();
      }
      if (finalAttempt(job)) return { status: "skipped", why: "notice_not_needed" };
      throw err;
    }
  }

  async function record(
    sub: Subscription,
    period: string,
    outcome: "delivered" | "failed",
    extra: { reason?: string; messageTs?: string; chart?: ChartOutcome },
  ) {
    await store.patch(sub, { lastDelivery: { period, at: deps.clock().toISOString(), outcome, ...extra } });
  }

  async function fail(
    job: DeliveryJob,
    sub: Subscription,
    period: string,
    token: string,
    f: Failure,
    err: unknown,
  ): Promise<never> {
    const { ref, id } = sub;
    if (f.kind === "rate_limited") {
      await claims.release(ref, id, period, token);
      await deps.rateLimit(f.retryAfterMs ?? 1_000);
      throw Worker.RateLimitError();
    }
    if (f.kind === "transient" && !finalAttempt(job)) {
      await claims.release(ref, id, period, token);
      throw err;
    }
    if (f.kind === "permanent") {
      // Released: the catch-up after the fix delivers this very period.
      await claims.release(ref, id, period, token);
      await record(sub, period, "failed", { reason: f.reason });
      // The pause starts at the failed run's fire time, so resume delivers that run as its catch-up.
      await deps.subscriptions.pause(ref, id, f.reason, periodTime(period) ?? deps.clock());
      logger.warn({ subId: id, reason: f.reason }, "subscription paused by a permanent delivery error");
      await deps.notifier.notifyOwner(ref, id, f.reason);
      throw new UnrecoverableError(`paused: ${f.reason}`);
    }
    // Out of retries, or an error retrying cannot fix: one notice, never a digest of zeros.
    await claims.finish(ref, id, period, "failed", f.reason);
    await record(sub, period, "failed", { reason: f.reason });
    try {
      await deps.slack.call(await deps.tokenFor(ref), "chat.postMessage", {
        channel: sub.channelId,
        ...failureNotice(sub, period, f.reason),
      });
    } catch (noticeErr) {
      logger.warn({ err: noticeErr, subId: id }, "could not post the failure notice");
    }
    throw new UnrecoverableError(`delivery failed: ${f.reason}`);
  }

  async function deliver(
    job: DeliveryJob,
    jobToken: string | undefined,
    sub: Subscription,
    period: string,
  ): Promise<DeliveryResult> {
    const { ref, id } = sub;
    const claim = await claims.claim(ref, id, period);
    if (claim.state === "done") return { status: "skipped", why: "already_done", period };
    if (claim.state === "busy") {
      // Another worker holds it, or one died holding it: look again when its lease runs out.
      await job.moveToDelayed(Date.now() + claim.retryInMs + 50, jobToken);
      throw new DelayedError();
    }
    let ts: string;
    let chart: ChartOutcome;
    const deliveryId = `${id}/${period}`;
    try {
      const botToken = await deps.tokenFor(ref);
      // A worker died between posting and recording it: the digest may be in the channel already.
      const since = await claims.postingSince(ref, id, period);
      const earlier = since === null ? null : await findPosted(deps, sub, botToken, deliveryId, since);
      if (earlier) {
        await claims.finish(ref, id, period, "delivered", earlier);
        await record(sub, period, "delivered", { messageTs: earlier });
        logger.info(
          { subId: id, period, ts: earlier },
          "digest was already posted by a worker that died; recorded",
        );
        return { status: "delivered", period, ts: earlier };
      }
      const prepared = await buildDigestView(deps, sub, botToken, periodTime(period) ?? deps.clock());
      if (!(await claims.confirm(ref, id, period, claim.token)))
        return { status: "skipped", why: "lease_lost", period };
      await claims.markPosting(ref, id, period);
      ({ ts, chart } = await postDigest(deps, sub, botToken, prepared, deliveryId));
    } catch (err) {
      return fail(job, sub, period, claim.token, classifyFailure(err), err);
    }
    // Posted: from here on nothing may release the claim, or a retry would post again.
    await claims.finish(ref, id, period, "delivered", ts);
    // A chart that should have been there and is not is part of the outcome, not only a log line.
    const missing = chart !== "attached" && chart !== "off";
    await record(sub, period, "delivered", { messageTs: ts, ...(missing ? { chart } : {}) });
    logger.info({ subId: id, period, ts, chart }, "digest delivered");
    return { status: "delivered", period, ts, chart };
  }

  return async function processDelivery(job: DeliveryJob, jobToken?: string): Promise<DeliveryResult> {
    const ids = parseSchedulerId(job.data.sub ?? "");
    if (!ids) throw new UnrecoverableError("a delivery job without a subscription id");
    const sub = await store.get(ids.ref, ids.subId);
    if (!sub) return { status: "skipped", why: "gone" };
    if (job.name === JOB_NAME.notice) {
      const reason = sub.pausedReason;
      if (sub.status !== "paused" || !reason || reason !== job.data.reason)
        return { status: "skipped", why: "notice_not_needed" };
      return tellOwner(job, sub, reason);
    }
    // Test sends go out even while paused: they are how an owner checks a fix.
    if (sub.status === "paused" && job.name !== JOB_NAME.test) return { status: "skipped", why: "paused" };
    const fire = job.data.period ? null : fireTimeOfJob(job);
    const period = job.data.period ?? (fire === null ? null : periodOf(fire));
    if (!period) throw new UnrecoverableError("a delivery job without a period");
    return deliver(job, jobToken, sub, period);
  };
}
