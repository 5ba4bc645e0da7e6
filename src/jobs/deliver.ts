import { DelayedError, UnrecoverableError } from "bullmq";
import type { DigestService } from "../digests/digest-service.ts";
import { isAppError } from "../errors.ts";
import type { Logger } from "../log.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";
import type { WorkspaceRef } from "../store/keys.ts";
import { parseSchedulerId } from "../subscriptions/ids.ts";
import { fireTimeOfJob, periodOf, periodTime } from "../subscriptions/period.ts";
import type { SchedulerSync } from "../subscriptions/scheduler-sync.ts";
import type { SubscriptionService } from "../subscriptions/service.ts";
import type { SubscriptionStore } from "../subscriptions/store.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import { runAlert } from "./alert-run.ts";
import type { AlertStateStore } from "./alert-state.ts";
import type { Begun, createBegin, createFinish } from "./begin.ts";
import type { DeliveryClaims } from "./claims.ts";
import { type DeliveryJob, type DeliveryResult, finalAttempt, later } from "./delivery-job.ts";
import type { DigestPostDeps, TakeoverDeps } from "./digest-post.ts";
import { type Run, type RunOutcome, runDigest } from "./digest-run.ts";
import { classifyFailure, type Failure } from "./failures.ts";
import { type FanOutDeps, fanOut } from "./fanout.ts";
import { failureNotice } from "./notices.ts";
import { tellOwner } from "./owner-notice.ts";
import type { Pacer } from "./pacing.ts";
import { JOB_NAME } from "./queue.ts";
import { SlackCallError } from "./slack-api.ts";
import type { VerdictSink } from "./verdicts.ts";

export type { DeliveryJob, DeliveryResult } from "./delivery-job.ts";

/** Everything the processor needs, built by the worker entry point. */
export interface DeliveryDeps extends TakeoverDeps, Pick<DigestPostDeps, "renderChart" | "chartWait"> {
  store: SubscriptionStore;
  subscriptions: Pick<SubscriptionService, "pause">;
  /** Queues the owner's DM (a `notice` job) after a pause. */
  notifier: Pick<SchedulerSync, "notifyOwner">;
  claims: DeliveryClaims;
  begin: ReturnType<typeof createBegin>;
  finish: ReturnType<typeof createFinish>;
  apiKeys: Pick<ApiKeyStore, "open">;
  /** The digest service reading the API key the delivery already loaded. */
  digestsWith(apiKeys: Pick<ApiKeyStore, "load">): Pick<DigestService, "build" | "drivers">;
  pacer: Pacer;
  fanOut: Omit<FanOutDeps, "logger">;
  /** The bot token of a workspace: the configured one, or an installation-store lookup. */
  tokenFor(ref: WorkspaceRef): Promise<string>;
  logger: Logger;
  clock: () => Date;
  /** A takeover that cannot tell for this long gives the period up without posting [6 h]. */
  takeoverGiveUpMs?: number;
  /** The alert state's scripts (alert subscriptions). */
  alerts: AlertStateStore;
  /**
   * Told of the verdicts written outside `finish` (a permanent failure, recorded as the subscription
   * pauses); `finish` itself comes wrapped by the caller (verdicts.ts).
   */
  verdicts?: VerdictSink;
}

/**
 * How long a delivery whose claim no replica confirmed waits before it tries again, without using an
 * attempt: long enough for Sentinel to finish a failover, short enough that its digest follows soon.
 */
export const UNCONFIRMED_RETRY_MS = 2_000;

/** How often a claim that could not be given up, or a verdict that could not be written, is tried again. */
const RETRY_WRITE_MS = 1_000;

/** Slack refused the post outright (a reply, or 429): it is certainly not in the channel. */
const refused = (err: unknown) =>
  err instanceof SlackCallError && (err.code === "slack_error" || err.status === 429 || err.status === 400);

/**
 * The delivery processor. A slot's job fans out (fanout.ts); a delivery loads the subscription,
 * its API key and the claim of (subscription, period) in one round trip, is paced per workspace and
 * channel, builds, posts, and records claim and outcome in one more. Exactly once: the claim is taken
 * before any work, re-checked and marked "posting" right before the post, and finished right after.
 * A worker that takes over a period whose post may have gone out looks for it in the channel first
 * (findPosted) and never posts while it cannot tell. A stall inside the post itself is the one gap.
 */
export function createDeliveryProcessor(deps: DeliveryDeps) {
  const { claims, logger } = deps;
  const giveUpMs = deps.takeoverGiveUpMs ?? 6 * 3_600_000;
  const runDeps = { ...deps, giveUpMs };

  const record = (
    sub: Subscription,
    period: string,
    outcome: LastDelivery["outcome"],
    extra: Partial<LastDelivery>,
  ) => deps.finish(sub, period, { period, at: deps.clock().toISOString(), outcome, ...extra });

  /**
   * A write the delivery must not leave undone, run again each second while it fails (Redis not
   * answering: a link down, a failover under way) until the claim's lease would have run out anyway.
   * A claim left behind holds the delivery's next run back for the rest of its lease (two minutes);
   * a posted run's verdict left unwritten sends its next run to look for the post in the channel's
   * history, which Slack allows once a minute per workspace, while the worker that posted knows.
   */
  async function persist<T>(write: () => Promise<T>): Promise<T> {
    const until = Date.now() + claims.leaseMs;
    for (;;) {
      try {
        return await write();
      } catch (err) {
        if (Date.now() + RETRY_WRITE_MS >= until) throw err;
        await new Promise((r) => setTimeout(r, RETRY_WRITE_MS));
      }
    }
  }
  const releaseSurely = (
    ref: WorkspaceRef,
    subId: string,
    period: string,
    token: string,
    o: { posted: boolean },
  ) => persist(() => claims.release(ref, subId, period, token, o));

  async function fail(
    job: DeliveryJob,
    jobToken: string | undefined,
    sub: Subscription,
    period: string,
    token: string,
    f: Failure,
    err: unknown,
    postingSince: number | null,
    posting: boolean,
  ): Promise<never> {
    const { ref, id } = sub;
    if (isAppError(err) && err.code === "redis_unconfirmed")
      return unconfirmed(job, jobToken, sub.ref, id, period, token, postingSince);
    // A message may be out only if an earlier run noted one or this run got as far as its post: a
    // run that failed before it (Redis timing out, say) leaves no note for the next run to check
    // the channel's history for, which Slack allows once a minute per workspace.
    const maybeOut = postingSince !== null || posting;
    const notPosted = (e: unknown) => !maybeOut || refused(e);
    if (f.kind === "rate_limited") {
      const waitMs = f.retryAfterMs ?? 1_000;
      await deps.pacer.throttled(ref, "chat.postMessage", waitMs);
      await releaseSurely(ref, id, period, token, { posted: !notPosted(err) });
      return later(job, jobToken, waitMs);
    }
    if (f.kind === "transient" && !finalAttempt(job)) {
      await releaseSurely(ref, id, period, token, { posted: !notPosted(err) });
      throw err;
    }
    if (f.kind === "permanent") {
      // Released: the catch-up after the fix delivers this very period.
      await releaseSurely(ref, id, period, token, { posted: !notPosted(err) });
      const last: LastDelivery = {
        period,
        at: deps.clock().toISOString(),
        outcome: "failed",
        reason: f.reason,
      };
      await deps.store.recordLast(ref, id, last);
      deps.verdicts?.(sub, last);
      // The pause starts at the failed run's fire time, so resume delivers that run as its catch-up.
      await deps.subscriptions.pause(ref, id, f.reason, periodTime(period) ?? deps.clock());
      logger.warn({ subId: id, reason: f.reason }, "subscription paused by a permanent delivery error");
      await deps.notifier.notifyOwner(ref, id, f.reason);
      throw new UnrecoverableError(`paused: ${f.reason}`);
    }
    // Out of retries, or an error retrying cannot fix: one notice, never a digest of zeros.
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

  /**
   * A claim no replica confirmed: a failover could lose it, so nothing is posted on it. It is given up
   * (keeping an earlier run's note that a post may be out) and the job tries again shortly, without
   * using an attempt: the fault is Redis', not the delivery's.
   */
  async function unconfirmed(
    job: DeliveryJob,
    jobToken: string | undefined,
    ref: WorkspaceRef,
    subId: string,
    period: string,
    token: string,
    postingSince: number | null,
  ): Promise<never> {
    logger.warn(
      { subId, period },
      "the delivery's claim is not confirmed by a Redis replica; not posting, trying again shortly",
    );
    await claims.release(ref, subId, period, token, { posted: postingSince !== null }).catch(() => undefined);
    return later(job, jobToken, UNCONFIRMED_RETRY_MS + Math.floor(Math.random() * UNCONFIRMED_RETRY_MS));
  }

  async function deliver(
    job: DeliveryJob,
    jobToken: string | undefined,
    ref: WorkspaceRef,
    subId: string,
    period: string,
  ): Promise<DeliveryResult> {
    const isTest = job.name === JOB_NAME.test;
    const ch = job.data.ch;
    const [begun, pace] = await Promise.all([
      deps.begin(ref, subId, period, !isTest),
      ch ? deps.pacer.take(ref, "chat.postMessage", ch) : Promise.resolve(null),
    ]);
    const { sub, claim } = begun as Begun;
    if (!sub) return { status: "skipped", why: "gone" };
    if (!claim) return { status: "skipped", why: "paused" };
    if (claim.state === "done") return { status: "skipped", why: "already_done", period };
    // Another worker holds it, or one died holding it: look again when its lease runs out.
    if (claim.state === "busy") return later(job, jobToken, claim.retryInMs + 50);
    // Nothing is built on a claim a failover could lose (a primary cut off from its replicas).
    if (!(await claims.durable()))
      return unconfirmed(job, jobToken, ref, subId, period, claim.token, claim.postingSince);
    const paced = pace ?? (await deps.pacer.take(ref, "chat.postMessage", sub.channelId));
    if (!paced.ok) {
      await claims.release(ref, subId, period, claim.token, { posted: true });
      return later(job, jobToken, paced.waitMs);
    }
    const run = {
      job,
      jobToken,
      sub,
      period,
      claim,
      deliveryId: `${subId}/${period}`,
      isTest,
      posting: false,
      botToken: "",
      digests: undefined as unknown as Run["digests"],
    };
    let outcome: RunOutcome;
    try {
      run.botToken = await deps.tokenFor(ref);
      const stored = deps.apiKeys.open(ref, begun.apiKeyHash);
      run.digests = deps.digestsWith({ load: async () => stored });
      outcome = sub.mode === "alert" ? await runAlert(runDeps, run) : await runDigest(runDeps, run);
    } catch (err) {
      // Waiting (a busy claim, an earlier check, Slack's history budget) is not a failure.
      if (err instanceof DelayedError) throw err;
      return fail(
        job,
        jobToken,
        sub,
        period,
        claim.token,
        classifyFailure(err),
        err,
        claim.postingSince,
        run.posting,
      );
    }
    // Posted: from here on nothing may release the claim, or a retry would post again.
    return outcome.kind === "posted" ? persist(outcome.record) : outcome.result;
  }

  return async function processDelivery(job: DeliveryJob, jobToken?: string): Promise<DeliveryResult> {
    if (job.name === JOB_NAME.slot) return fanOut({ ...deps.fanOut, logger, clock: deps.clock }, job);
    const ids = parseSchedulerId(job.data.sub ?? "");
    if (!ids) throw new UnrecoverableError("a delivery job without a subscription id");
    if (job.name === JOB_NAME.notice) return tellOwner(deps, job, jobToken, ids.ref, ids.subId);
    const fire = job.data.period ? null : fireTimeOfJob(job);
    const period = job.data.period ?? (fire === null ? null : periodOf(fire));
    if (!period) throw new UnrecoverableError("a delivery job without a period");
    return deliver(job, jobToken, ids.ref, ids.subId, period);
  };
}
