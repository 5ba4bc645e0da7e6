import type { Tracing } from "../tracing.ts";
import { inSpan } from "../tracing.ts";
import type { DeliveryJob, DeliveryResult } from "./delivery-job.ts";
import { JOB_NAME } from "./queue.ts";

/**
 * Runs a delivery job in its span: a slot's fire starts a trace (`slot.fire`, whose fan-out adds the
 * deliveries); a delivery (`delivery`) continues the trace its fan-out's traceparent names, or starts
 * one (a catch-up, a test send, an owner notice). Attributes are ids and outcomes only.
 */
export function inJobSpan(
  tracing: Tracing,
  job: DeliveryJob,
  work: () => Promise<DeliveryResult>,
): Promise<DeliveryResult> {
  const slot = job.name === JOB_NAME.slot;
  const attributes = slot
    ? { "insights.slot": job.data.slot ?? "", "messaging.message.id": String(job.id) }
    : {
        "insights.job": job.name,
        "insights.subscription": job.data.sub ?? "",
        "insights.period": job.data.period ?? "",
        "messaging.message.id": String(job.id),
      };
  return inSpan(
    tracing.tracer,
    slot ? "slot.fire" : "delivery",
    attributes,
    async (span) => {
      const result = await work();
      span.setAttribute("insights.result", result.status);
      if (result.status === "skipped") span.setAttribute("insights.skipped", result.why);
      return result;
    },
    tracing.parentOf(slot ? undefined : job.data.tp),
  );
}
