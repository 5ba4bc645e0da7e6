import type { DigestService } from "../digests/digest-service.ts";
import type { Logger } from "../log.ts";
import { periodTime } from "../subscriptions/period.ts";
import { judgeRun } from "../subscriptions/run-verdict.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import type { createFinish, RunFields } from "./begin.ts";
import { attachChart, type PreparedDigest } from "./chart-ready.ts";
import type { ClaimState, DeliveryClaims } from "./claims.ts";
import { type DeliveryJob, type DeliveryResult, later } from "./delivery-job.ts";
import {
  buildView,
  CHART_AS_PLANNED,
  type DigestPostDeps,
  findPosted,
  type TakeoverDeps,
} from "./digest-post.ts";
import { messageFields, placeDigest, placementOf } from "./styles.ts";

/** One delivery's run, after its claim was taken: who, what period, with which token and digests. */
export interface Run {
  job: DeliveryJob;
  jobToken: string | undefined;
  sub: Subscription;
  period: string;
  claim: Extract<ClaimState, { state: "acquired" }>;
  botToken: string;
  /** The digest service reading the API key the delivery already loaded. */
  digests: Pick<DigestService, "build" | "drivers">;
  deliveryId: string;
  /** A "send now": posts whatever its condition says, and leaves no history or alert state. */
  isTest: boolean;
  /**
   * Set once the claim is confirmed for the post: from then on a failure may have left a message in
   * the channel. Before it, one certainly did not, whatever the error (Redis timing out included).
   */
  posting: boolean;
}

/** What a run needs from the delivery's dependencies. */
export interface RunDeps extends TakeoverDeps, Pick<DigestPostDeps, "renderChart" | "chartWait"> {
  claims: DeliveryClaims;
  finish: ReturnType<typeof createFinish>;
  logger: Logger;
  clock: () => Date;
  /** A takeover that cannot tell for this long gives the period up without posting. */
  giveUpMs: number;
}

/**
 * How a run ended. `posted`: a message went out and `record` writes the verdict; the processor
 * calls it outside its error handling, since nothing may release the claim of a posted run.
 */
export type RunOutcome =
  | { kind: "done"; result: DeliveryResult }
  | { kind: "posted"; record(): Promise<DeliveryResult> };

export const done = (result: DeliveryResult): RunOutcome => ({ kind: "done", result });

/** Writes a run's outcome and what it leaves for the next run. */
export function recorder(deps: Pick<RunDeps, "finish" | "clock">, run: Run) {
  return (outcome: LastDelivery["outcome"], extra: Partial<LastDelivery>, runs?: RunFields) =>
    deps.finish(
      run.sub,
      run.period,
      { period: run.period, at: deps.clock().toISOString(), outcome, ...extra },
      runs,
    );
}

/**
 * After a worker died between noting a post and recording it, whether this run's message is already
 * out. `null`: go on (nothing was posted, or the run only edits a message, which can go again).
 */
export async function takeover(
  deps: RunDeps,
  run: Run,
  threadTs: string | undefined,
  onFound: (ts: string) => Promise<DeliveryResult>,
): Promise<RunOutcome | null> {
  const { sub, period, claim, job } = run;
  if (claim.postingSince === null) return null;
  const seen = await findPosted(
    deps,
    sub,
    run.botToken,
    run.deliveryId,
    claim.postingSince,
    job.data.cursor,
    threadTs,
  );
  if (seen.kind === "found") {
    deps.logger.info(
      { subId: sub.id, period, ts: seen.ts },
      "the message was already posted by a worker that died",
    );
    return { kind: "posted", record: () => onFound(seen.ts) };
  }
  if (seen.kind === "absent") return null;
  await deps.claims.release(sub.ref, sub.id, period, claim.token, { posted: true });
  if (Date.now() - job.timestamp > deps.giveUpMs) {
    await recorder(deps, run)("failed", { reason: "unverifiable" });
    deps.logger.error(
      { subId: sub.id, period, why: seen.why },
      "could not tell whether the message went out; not posting it again",
    );
    return done({ status: "skipped", why: "unverifiable", period });
  }
  if (seen.cursor !== job.data.cursor) await job.updateData({ ...job.data, cursor: seen.cursor });
  return later(job, run.jobToken, seen.waitMs);
}

/**
 * A digest run: build the digest; when the subscription has a condition, post only if it is met
 * (else record "skipped" with the reason); then the chart, and the post or edit its style asks for.
 */
export async function runDigest(deps: RunDeps, run: Run): Promise<RunOutcome> {
  const { sub, period, claim } = run;
  const asOf = periodTime(period) ?? deps.clock();
  const record = recorder(deps, run);
  const placement = placementOf(sub, asOf);
  if (placement.kind === "post") {
    const seen = await takeover(deps, run, placement.threadTs, async (ts) => {
      await record("delivered", { messageTs: ts }, placement.threadTs ? {} : messageFields(sub, asOf, ts));
      return { status: "delivered", period, ts };
    });
    if (seen) return seen;
  }
  const view = await buildView({ ...deps, digests: run.digests }, sub, asOf);
  const judged = judgeRun(sub, view, period, run.isTest);
  const history: RunFields = judged.history ? { set: { hv: judged.history } } : {};
  if (!judged.post) {
    const reason = judged.verdict?.reason ?? "condition not met";
    await record("skipped", { reason }, history);
    deps.logger.info({ subId: sub.id, period, reason }, "run skipped: its condition was not met");
    return done({ status: "skipped", why: "condition_not_met", period });
  }
  // Native charts go in the message itself: no file, no wait. Only the image path uploads.
  const style = judged.view.chartStyle;
  const prepared: PreparedDigest =
    style === "png"
      ? await attachChart(deps, sub, run.botToken, judged.view)
      : { view: judged.view, chart: style === "native" ? "native" : "off" };
  if (!(await deps.claims.confirm(sub.ref, sub.id, period, claim.token)))
    return done({ status: "skipped", why: "lease_lost", period });
  run.posting = true;
  const placed = await placeDigest(deps, sub, run.botToken, prepared, run.deliveryId, asOf);
  return {
    kind: "posted",
    async record() {
      // A chart that should have been there and is not is part of the outcome, not only a log line.
      const { ts, chart } = placed;
      const missing = !CHART_AS_PLANNED.has(chart);
      const runs: RunFields = { set: { ...history.set, ...placed.runs.set } };
      await record("delivered", { messageTs: ts, ...(missing ? { chart } : {}) }, runs);
      deps.logger.info({ subId: sub.id, period, ts, chart }, "digest delivered");
      return { status: "delivered", period, ts, chart };
    },
  };
}
