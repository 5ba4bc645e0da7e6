import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { LastDelivery, Subscription } from "../subscriptions/types.ts";
import type { createFinish } from "./begin.ts";
import { type DeliveryLog, latenessMs } from "./delivery-log.ts";
import { failureLabel, failureSource } from "./failures.ts";

/** Told of every verdict a delivery records on its subscription. */
export type VerdictSink = (sub: Pick<Subscription, "ref" | "id" | "mode">, last: LastDelivery) => void;

/**
 * Counts a verdict into the metrics (outcome, failure reason, lateness of scheduled posts) and the
 * operators' delivery log. Never fails the delivery: the verdict is already on the record, and a log
 * write that fails costs only a line in the operators' view.
 */
export function createVerdictSink(o: { metrics: Metrics; log?: DeliveryLog; logger: Logger }): VerdictSink {
  return (sub, last) => {
    o.metrics.deliveries.inc({ outcome: last.outcome });
    if (last.outcome === "failed") {
      const reason = last.reason ?? "";
      o.metrics.deliveryFailures.inc({ source: failureSource(reason), reason: failureLabel(reason) });
    }
    if (last.outcome === "delivered") {
      const late = latenessMs(last);
      if (late !== null) o.metrics.deliveryLateness.observe(late / 1000);
    }
    o.log?.note(sub, last).catch((err: unknown) => {
      o.logger.warn({ err: { message: (err as Error).message } }, "could not write the delivery log");
    });
  };
}

type Finish = ReturnType<typeof createFinish>;

/** A finish that tells `sink` of each verdict it wrote (not of one it kept from being written). */
export function withVerdicts(finish: Finish, sink: VerdictSink): Finish {
  return async (sub, period, last, runs, opts) => {
    const wrote = await finish(sub, period, last, runs, opts);
    if (wrote !== "kept") sink(sub, last);
    return wrote;
  };
}
